import Koa from 'koa';
import { AppError } from '../domain/errors.ts';
import type { AppContext } from './appDependencies.ts';
import { errorHandler } from './middleware/errorHandler.ts';
import { requestMetrics } from './middleware/requestMetrics.ts';
import { requestScope } from './middleware/requestScope.ts';
import { requestTracing } from './middleware/requestTracing.ts';
import { SCIM_PATH_PREFIX } from './routes/scim/scimRoute.ts';

/** How soon a refused caller should try again: the shortest Retry-After, as a full queue drains in a moment (docs/operators.md, "Overload"). */
export const OVERLOAD_RETRY_AFTER_SECONDS = 1;

const overloaded = new AppError('unavailable', 'the service has more requests waiting than it queues; try again after Retry-After seconds', {
  retryAfterSeconds: OVERLOAD_RETRY_AFTER_SECONDS,
});

/**
 * What answers a request for which the admission queue has no room (HTTP_MAX_QUEUED): 503 `unavailable` with
 * Retry-After, through the same error map as every other failure (RFC 7644's body beneath the SCIM endpoint), counted
 * in the metrics and the access log like any answer. It reads nothing of the request and runs no route.
 */
export function overloadRefusal(context: Pick<AppContext, 'log' | 'metrics' | 'tracer'>): Koa {
  const app = new Koa();
  app.silent = true;
  if (context.metrics) app.use(requestMetrics(context.metrics));
  if (context.tracer) app.use(requestTracing(context.tracer));
  app.use(requestScope(context.log));
  app.use(errorHandler({ scimPrefix: SCIM_PATH_PREFIX }));
  app.use(() => {
    throw overloaded;
  });
  return app;
}
