import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.ts';

/**
 * `GET /metrics` on a listener of its own (METRICS_PORT / WORKER_METRICS_PORT), apart from the API's port: a scrape
 * never queues behind API traffic, and the API's authentication and rate limits do not apply to Prometheus.
 * `exposition` answers the whole text (prom-client's registry, plus anything appended, such as Temporal's own).
 */
export async function startMetricsServer(
  port: number,
  host: string,
  exposition: () => Promise<{ contentType: string; text: string }>,
  log: Logger,
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    exposition().then(
      ({ contentType, text }) => res.writeHead(200, { 'content-type': contentType }).end(text),
      (err: unknown) => {
        log.warn({ err }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  log.info({ port: bound }, 'metrics listening');
  return { port: bound, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
