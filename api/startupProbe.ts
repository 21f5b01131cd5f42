import { createServer } from 'node:http';
import type { Logger } from '../platform/logger.ts';
import { STORE_RETRY_AFTER_SECONDS } from './errorResponse.ts';

/**
 * What the API's port answers while the process waits for PostgreSQL, and for its schema to be migrated, at start
 * (platform/untilAvailable.ts): alive (`/healthz` 200), not ready (`/readyz` 503 naming the missing dependency), and
 * 503 `unavailable` with Retry-After for everything else, so a probe or a caller learns why instead of meeting a
 * closed port. Closed once the API is ready to take the port over.
 */
export async function startStartupProbe(port: number, host: string, log: Logger): Promise<{ close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 503 ? { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } : {}) });
      res.end(JSON.stringify(body));
    };
    if (path === '/healthz') return json(200, { status: 'ok' });
    if (path === '/readyz') {
      const waiting = 'waiting for PostgreSQL and its migrated schema';
      return json(503, { error: 'unavailable', message: `starting: ${waiting}`, checks: { store: { status: 'down', message: waiting } } });
    }
    return json(503, { error: 'unavailable', message: 'the service is starting: waiting for PostgreSQL and its migrated schema; try again' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  log.info({ port }, 'answering probes while waiting for PostgreSQL');
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
