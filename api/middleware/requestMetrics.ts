import type { Middleware } from 'koa';
import type { ApiMetrics } from '../../platform/metrics/apiMetrics.ts';

/**
 * Times every request into the duration histogram, labelled by the route template the router matched
 * (`ctx.state.route`, set by routeMiddleware), or `unmatched` for paths no operation serves, so ids never become labels.
 */
export function requestMetrics(metrics: ApiMetrics): Middleware {
  const { requestDuration } = metrics;
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx.state.route as string | undefined) ?? 'unmatched';
      requestDuration.observe({ method: ctx.method, route, status: String(ctx.status) }, (performance.now() - started) / 1000);
    }
  };
}
