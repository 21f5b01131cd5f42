import { createServer, connect, type Server, type Socket } from 'node:net';

/** How a proxy's listener is made around its handler of each client connection: plain TCP, or TLS (tlsTerminatingProxy.ts). */
export type ProxyListenerOf = (onClient: (client: Socket) => void) => Server;

/**
 * A loopback TCP proxy that can be cut and restored, to make a real server unreachable for a while without
 * stopping it. Cutting closes every open connection and refuses new ones. Stalling is the silent failure: the open
 * connections stay open but carry nothing more either way (a half-open connection), while new ones work.
 */
export async function startTcpProxy(target: { host: string; port: number }, listenerOf: ProxyListenerOf = (onClient) => createServer(onClient)) {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = listenerOf((client) => {
    if (!open) return client.destroy();
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
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
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
    stall() {
      for (const s of sockets) {
        s.unpipe();
        s.pause();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
