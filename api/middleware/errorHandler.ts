import type { Middleware } from 'koa';
import { errorResponse } from '../errorResponse.ts';

/** Outermost handler: every non-2xx answer carries the Error body, including unknown routes. */
export function errorHandler(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: 'not_found', message: `no route for ${ctx.method} ${ctx.path}` };
      }
    } catch (error) {
      const response = errorResponse(error);
      if (!response.expose) ctx.state.log?.error({ err: error }, 'request failed');
      const allow = (error as { headers?: Record<string, string> })?.headers?.Allow;
      ctx.status = response.status;
      ctx.body = response.body;
      if (allow) ctx.set('Allow', allow);
    }
  };
}
