import { connect, type Socket } from 'node:net';
import { createServer, type TLSSocket } from 'node:tls';

/**
 * Temporal behind TLS: a loopback server that speaks TLS (HTTP/2 by ALPN) and demands a client certificate signed by
 * `ca`, then passes the bytes on to a plaintext server (the test Temporal, which takes HTTP/2 without TLS). What
 * mutual TLS to Temporal needs of the service, without a Temporal of its own that speaks TLS.
 */
export async function startTlsTerminatingProxy(target: { host: string; port: number }, tls: { key: string; cert: string; ca: string }) {
  const sockets = new Set<Socket>();
  const server = createServer({ ...tls, requestCert: true, rejectUnauthorized: true, ALPNProtocols: ['h2'] }, (client: TLSSocket) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
