import type { Middleware } from 'koa';
import type { Histogram } from 'prom-client';
import type { ApiMetrics } from '../apiMetrics.ts';
import { arrivalOf } from '../../platform/requestAdmission.ts';

/**
 * Times every request from its arrival (its wait for a slot included) into the duration histogram, labelled by the
 * route template the router matched (`ctx.state.route`, set by routeMiddleware), or `unmatched` for paths no operation
 * serves, so ids never become labels.
 * The labelled series are looked up once per distinct method, route and status, not hashed on every request.
 */
export function requestMetrics(metrics: ApiMetrics): Middleware {
  const { requestDuration } = metrics;
  const series = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
  return async (ctx, next) => {
    const started = arrivalOf(ctx.req);
    try {
      await next();
    } finally {
      const route = (ctx.state.route as string | undefined) ?? 'unmatched';
      const key = `${ctx.method} ${ctx.status} ${route}`;
      let child = series.get(key);
      if (!child) {
        child = requestDuration.labels({ method: ctx.method, route, status: String(ctx.status) });
        // Bounded: methods × statuses × route templates; an unknown method or path is 'unmatched' or refused.
        if (series.size < 10_000) series.set(key, child);
      }
      child.observe((performance.now() - started) / 1000);
    }
  };
}
