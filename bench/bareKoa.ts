import { createServer } from 'node:http';
import Koa from 'koa';

/**
 * The benchmark's floors: a bare Koa app on the same Node, served the way the service serves (node:http, the same
 * keep-alive timeout), doing the same I/O as a path of the service and nothing else. Every figure of the service is
 * printed as a ratio to the floor of its kind (issue #19):
 * - any path: a fixed JSON body (the ceiling of this machine for a Koa handler);
 * - `POST /floor/json`: reads and parses a JSON body like verify's or claims', then answers a fixed one;
 * - `GET /floor/page`: answers a fixed page of 50 audit events, the size of the service's pages.
 * Prints `listening <port>` once it accepts connections.
 */
const body = { valid: true, tenant_id: '00000000-0000-4000-8000-000000000000', scopes: ['read'] };
const event = (i: number) => ({
  id: 1_000_000 - i,
  action: 'billing.invoice_paid',
  created_at: '2026-11-22T12:00:00.000Z',
  tenant_id: '00000000-0000-4000-8000-000000000000',
  actor_id: `actor-${i}`,
  actor_type: 'user',
  target_id: `invoice-${i}`,
  target_type: 'invoice',
  product: 'analytics',
  metadata: { amount: 1200 + i, currency: 'EUR' },
  source_ip: '10.0.0.1',
  user_agent: 'bench/1.0',
  hash: 'f'.repeat(64),
});
const page = JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => event(i)), next_cursor: 999_950 });

const app = new Koa();
app.silent = true;
app.use(async (ctx) => {
  if (ctx.method === 'POST' && ctx.path === '/floor/json') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { key?: unknown };
    ctx.body = typeof parsed === 'object' && parsed !== null ? body : { valid: false };
    return;
  }
  if (ctx.path === '/floor/page') {
    ctx.type = 'application/json';
    ctx.body = page;
    return;
  }
  ctx.body = body;
});
const handle = app.callback();
// Koa answers every failure of a request itself (ctx.onerror): its promise never rejects, and Node drops it anyway.
const server = createServer((req, res) => void handle(req, res));
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
