import { createServer, type RequestListener, type Server } from 'node:http';

export interface RunningHttpServer {
  server: Server;
  port: number;
  /** Stops accepting connections and resolves once in-flight requests finished, or after graceMs at the latest. */
  close(graceMs: number): Promise<void>;
}

export async function listen(handler: RequestListener, port: number, host: string): Promise<RunningHttpServer> {
  const server = createServer(handler);
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
