import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { listen, listenerOf } from '../../platform/httpServer.ts';

/** A server whose only route answers after `delayMs`, to have a request in flight during shutdown. */
async function slowServer(delayMs: number) {
  const app = new Koa();
  app.use(async (ctx) => {
    await new Promise((r) => setTimeout(r, delayMs));
    ctx.body = { done: true };
  });
  return listen(listenerOf(app.callback()), 0, '127.0.0.1');
}

describe('graceful shutdown', () => {
  it('finishes a request that is in flight when shutdown starts', async () => {
    const server = await slowServer(400);
    const inFlight = fetch(`http://127.0.0.1:${server.port}/`);
    await new Promise((r) => setTimeout(r, 100));
    const closed = server.close(5000);
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    await closed;
  });

  it('refuses new connections once shutdown has started', async () => {
    const server = await slowServer(300);
    const inFlight = fetch(`http://127.0.0.1:${server.port}/`);
    await new Promise((r) => setTimeout(r, 50));
    const closed = server.close(5000);
    await expect(fetch(`http://127.0.0.1:${server.port}/`, { headers: { connection: 'close' } })).rejects.toThrow();
    await inFlight;
    await closed;
  });

  it('closes connections still open when the grace period ends', async () => {
    const server = await slowServer(10_000);
    const inFlight = fetch(`http://127.0.0.1:${server.port}/`).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 50));
    await server.close(200);
    expect(await inFlight).toBe('cut');
  });
});
