import { createServer } from 'node:http';
import Koa from 'koa';

/**
 * The benchmark's baseline: a bare Koa app on the same Node answering a fixed JSON body, served the way the service
 * serves (node:http, the same keep-alive timeout). It is the ceiling of this machine for a Koa handler; every figure of
 * the service is printed as a ratio to it. Prints `listening <port>` once it accepts connections.
 */
const body = { valid: true, tenant_id: '00000000-0000-4000-8000-000000000000', scopes: ['read'] };
const app = new Koa();
app.silent = true;
app.use((ctx) => {
  ctx.body = body;
});
const server = createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
