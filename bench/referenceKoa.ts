import { createServer } from 'node:http';
import Koa from 'koa';
import pg from 'pg';
import { createApiMetrics } from '../api/apiMetrics.ts';
import { requestMetrics } from '../api/middleware/requestMetrics.ts';
import { requestScope } from '../api/middleware/requestScope.ts';
import { AUDIT_DEFAULT_LIMIT } from '../domain/schemas/audit.ts';
import { createLogger } from '../platform/logger.ts';
import { answerJsonBody, VERIFY_LIKE_ANSWER } from './floorAnswers.ts';

/**
 * The bench's reference rows: the bare Koa floor app plus exactly one part the service cannot do without, so a table
 * shows how near its floor any path that needs that part can come on its machine:
 * - `GET /reference/postgres-page?tenant_id=`: a tenant's first audit page read by the service's own statement on the
 *   service's database (DATABASE_URL) and joined, nothing else (the audit pages' part: one PostgreSQL round trip);
 * - `POST /reference/json-framed`: the JSON-body floor inside the service's own request metrics and request scope (its
 *   duration histogram, request id and access line at info on stdout), the frame every internal call runs in.
 * Any other path answers the fixed JSON.
 */
const PAGE = AUDIT_DEFAULT_LIMIT;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });

const pages = new Koa();
pages.silent = true;
pages.use(async (ctx) => {
  if (ctx.path !== '/reference/postgres-page') {
    ctx.body = VERIFY_LIKE_ANSWER;
    return;
  }
  const { rows } = await pool.query<{ id: string; answer: string }>({
    name: 'page',
    text: 'select id, answer from audit_events where tenant_id = $1 order by id desc limit $2',
    values: [ctx.query.tenant_id, PAGE + 1],
  });
  const items = rows.slice(0, PAGE);
  ctx.type = 'application/json';
  ctx.body = `{"items":[${items.map((row) => row.answer).join(',')}]${rows.length > PAGE ? `,"next_cursor":${items.at(-1)!.id}` : ''}}`;
});

// The metrics' sources are read only when the registry is scraped, which nothing does here.
const metrics = createApiMetrics({ certificates: [] } as unknown as Parameters<typeof createApiMetrics>[0]);
const framed = new Koa();
framed.silent = true;
framed.use(requestMetrics(metrics));
framed.use(requestScope(createLogger('info', 'tenant-registry-api')));
framed.use(async (ctx) => {
  ctx.state.route = '/v1/internal/api-keys/verify';
  await answerJsonBody(ctx);
});

const handlePage = pages.callback();
const handleFramed = framed.callback();
const server = createServer((req, res) => void (req.url === '/reference/json-framed' ? handleFramed : handlePage)(req, res));
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
