import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenerOf } from '../../../platform/httpServer.ts';
import { requestScope } from '../../../api/middleware/requestScope.ts';
import { createLogger } from '../../../platform/logger.ts';

const lines: Record<string, unknown>[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const log = createLogger('info', 'request-scope-test', destination);

let server: Server;
let base: string;
beforeAll(async () => {
  const app = new Koa();
  // Outside the scope, as requestMetrics and requestTracing are: what it puts in ctx.state must stay.
  app.use(async (ctx, next) => {
    ctx.state.outer = 'kept';
    await next();
  });
  app.use(requestScope(log));
  app.use((ctx) => {
    if (ctx.path === '/logs') ctx.state.log.warn('something to say');
    ctx.body = { requestId: ctx.state.requestId, outer: ctx.state.outer };
  });
  server = createServer(listenerOf(app.callback()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const flushed = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('requestScope', () => {
  it("keeps a sane X-Request-Id of the caller's, answers it, and names it in the access line", async () => {
    const response = await fetch(`${base}/v1/things?x=1`, { headers: { 'X-Request-Id': 'caller-id.1' } });
    expect(response.headers.get('x-request-id')).toBe('caller-id.1');
    expect(await response.json()).toEqual({ requestId: 'caller-id.1', outer: 'kept' });
    await flushed();
    expect(lines.find((line) => line.requestId === 'caller-id.1')).toMatchObject({ msg: 'request', method: 'GET', path: '/v1/things', status: 200, name: 'request-scope-test' });
  });

  it('makes up a request id when the caller sent none or one that is not sane', async () => {
    for (const headers of [{}, { 'X-Request-Id': 'no spaces or <tags>' }]) {
      const response = await fetch(base, { headers });
      const id = response.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(((await response.json()) as { requestId: string }).requestId).toBe(id);
    }
  });

  it("a handler's log lines carry the request id", async () => {
    const response = await fetch(`${base}/logs`);
    const id = response.headers.get('x-request-id');
    await flushed();
    expect(lines.find((line) => line.msg === 'something to say')).toMatchObject({ requestId: id, level: 40 });
  });
});
