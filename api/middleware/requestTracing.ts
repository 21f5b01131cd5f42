import { SpanKind, SpanStatusCode, context, propagation, type Tracer } from '@opentelemetry/api';
import type { Middleware } from 'koa';

/**
 * One SERVER span per request, continuing the caller's W3C trace context, active while the request runs so the
 * Temporal client and fetch calls it makes are its children; named by method and route template once routed.
 */
export function requestTracing(tracer: Tracer): Middleware {
  return (ctx, next) => {
    const parent = propagation.extract(context.active(), ctx.headers);
    return tracer.startActiveSpan(ctx.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method } }, parent, async (span) => {
      try {
        await next();
      } finally {
        const route = ctx.state.route as string | undefined;
        if (route) {
          span.updateName(`${ctx.method} ${route}`);
          span.setAttribute('http.route', route);
        }
        span.setAttribute('http.response.status_code', ctx.status);
        if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    });
  };
}
