import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.ts';

/** A probe's answer: its status code and JSON body. */
export type ProbeAnswer = { status: number; body: object };

/**
 * `GET /metrics` on a listener of its own (METRICS_PORT / WORKER_METRICS_PORT), apart from the API's port: a scrape
 * never queues behind API traffic, and the API's authentication and rate limits do not apply to Prometheus.
 * `exposition` answers the whole text (prom-client's registry, plus anything appended, such as Temporal's own).
 * `probes` adds health endpoints by path (the worker's /healthz and /readyz), for a process that has no other port.
 */
export async function startMetricsServer(
  port: number,
  host: string,
  exposition: () => Promise<{ contentType: string; text: string }>,
  log: Logger,
  probes: Record<string, () => Promise<ProbeAnswer>> = {},
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = req.url?.split('?')[0] ?? '';
    const probe = Object.hasOwn(probes, path) ? probes[path] : undefined;
    if (req.method === 'GET' && probe) {
      probe().then(
        ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body)),
        (err: unknown) => {
          log.warn({ err, path }, 'probe failed');
          res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: 'unavailable', message: 'probe failed' }));
        },
      );
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
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
