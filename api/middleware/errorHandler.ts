import { STATUS_CODES } from 'node:http';
import type { Middleware } from 'koa';
import { errorBodyOfStatus, errorResponse } from '../errorResponse.ts';

/** Outermost handler: every non-2xx answer carries the Error body, including unknown routes. */
export function errorHandler(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // A status without a body (unknown route, or the router's 405/501, which keep their Allow header) gets the Error body.
      if (ctx.status >= 400 && ctx.body == null) {
        const status = ctx.status;
        const message = status === 404 ? `no route for ${ctx.method} ${ctx.path}` : `${STATUS_CODES[status] ?? 'error'}: ${ctx.method} ${ctx.path}`;
        ctx.body = errorBodyOfStatus(status, message);
        ctx.status = status;
      }
    } catch (error) {
      const response = errorResponse(error);
      if (response.retryAfterSeconds !== undefined) {
        ctx.set('Retry-After', String(response.retryAfterSeconds));
        // Not a bug of ours: warn, and only the message (a store outage fails every request the same way).
        if (!response.expose) ctx.state.log?.warn({ err: { message: (error as Error).message, code: (error as { code?: unknown }).code } }, 'request failed: store unreachable');
      } else if (!response.expose) ctx.state.log?.error({ err: error }, 'request failed');
      const allow = (error as { headers?: Record<string, string> })?.headers?.Allow;
      ctx.status = response.status;
      ctx.body = response.body;
      if (allow) ctx.set('Allow', allow);
    }
  };
}
