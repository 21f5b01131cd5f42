import { connect, createServer, type Socket } from 'node:net';

/**
 * A loopback TCP port that was free a moment ago (the OS picks it), for servers started on demand.
 *
 * Released plainly, the port goes back to the kernel's ephemeral pool: the next `bind(0)` or outgoing connection of
 * any process may take it before our server binds it (the Temporal CLI's own internal ports took the UI port so, and
 * the dev server died). Closing an accepted connection from the listening side first leaves the port in TIME_WAIT for
 * a minute, which the kernel skips when it picks ports, while a server binding it by number (with SO_REUSEADDR, as
 * Node, Go, PostgreSQL and Vert.x do) still can. The Temporal CLI and SDKs pick their ports the same way (temporalio/cli#564).
 */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.once('connection', (accepted: Socket) => accepted.destroy());
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      const client = connect({ host: '127.0.0.1', port });
      client.once('error', reject);
      // The server side closed first, so it holds TIME_WAIT; wait until the client has seen that close.
      client.once('close', () => server.close(() => resolvePort(port)));
      client.resume();
    });
  });
}
