import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';

export interface RunningHttpServer {
  server: Server;
  port: number;
  /** Stops accepting connections and resolves once in-flight requests finished, or after graceMs at the latest. */
  close(graceMs: number): Promise<void>;
}

/**
 * Node's request listener for a handler that answers its own failures, such as Koa's `app.callback()` (it catches
 * every error of a request with ctx.onerror, so its promise never rejects). Node drops whatever a listener returns;
 * this drops the promise where it can be seen.
 */
export function listenerOf(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): RequestListener {
  return (req, res) => void handler(req, res);
}

/**
 * The most a request's head (request line and headers) may be; Node answers 431 above it. Above Node's default
 * (16 KiB) so the request target's own limit (api/middleware/uriLimit.ts) answers an over-long URI first, with 414.
 */
export const MAX_HEADER_BYTES = 48 * 1024;

export async function listen(handler: RequestListener, port: number, host: string): Promise<RunningHttpServer> {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        // Keep-alive sockets become idle once their request is answered; close them as they do, or close() waits.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
