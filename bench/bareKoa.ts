import { createServer } from 'node:http';
import Koa from 'koa';
import { answerJsonBody, FIXED_PAGE, VERIFY_LIKE_ANSWER } from './floorAnswers.ts';

/**
 * The benchmark's floors: a bare Koa app on the same Node, served the way the service serves (node:http, the same
 * keep-alive timeout), doing the same I/O as a path of the service and nothing else. Every figure of the service is
 * printed as a ratio to the floor of its kind (issue #19):
 * - any path: a fixed JSON body (the ceiling of this machine for a Koa handler);
 * - `POST /floor/json`: reads and parses a JSON body like verify's or claims', then answers a fixed one;
 * - `GET /floor/page`: answers a fixed page of 50 audit events, the size of the service's pages.
 * Prints `listening <port>` once it accepts connections.
 */
const app = new Koa();
app.silent = true;
app.use(async (ctx) => {
  if (ctx.method === 'POST' && ctx.path === '/floor/json') return answerJsonBody(ctx);
  if (ctx.path === '/floor/page') {
    ctx.type = 'application/json';
    ctx.body = FIXED_PAGE;
    return;
  }
  ctx.body = VERIFY_LIKE_ANSWER;
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
