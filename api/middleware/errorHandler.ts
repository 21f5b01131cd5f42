import { STATUS_CODES } from 'node:http';
import type { Context, Middleware } from 'koa';
import { SCIM_CONTENT_TYPE, scimErrorBody } from '../scimAnswer.ts';
import { errorBodyOfStatus, errorResponse, type ErrorResponse } from '../errorResponse.ts';

/** The body of a failure: the registry's Error body, or beneath the SCIM endpoint RFC 7644's, as application/scim+json (§8.1). */
function answerFailure(ctx: Context, scim: boolean, response: Pick<ErrorResponse, 'status' | 'body' | 'scimType'>): void {
  if (!scim) {
    ctx.body = response.body;
    return;
  }
  ctx.body = scimErrorBody(response.status, response.body.message ?? response.body.error, response.scimType);
  ctx.set('Content-Type', SCIM_CONTENT_TYPE);
}

/**
 * Outermost handler: every non-2xx answer carries the Error body, including unknown routes. Beneath `scimPrefix`
 * (the directories' SCIM endpoint) the same failures are answered in RFC 7644's error body instead, which SCIM
 * clients read (§3.12): an unknown path, a path parameter or body the route refuses, the store away.
 */
export function errorHandler(options: { scimPrefix?: string } = {}): Middleware {
  const { scimPrefix } = options;
  const scimOf = (path: string) => scimPrefix !== undefined && path.startsWith(scimPrefix);
  return async (ctx, next) => {
    try {
      await next();
      // A status without a body (unknown route, or the router's 405/501, which keep their Allow header) gets the Error body.
      if (ctx.status >= 400 && ctx.body == null) {
        const status = ctx.status;
        const message = status === 404 ? `no route for ${ctx.method} ${ctx.path}` : `${STATUS_CODES[status] ?? 'error'}: ${ctx.method} ${ctx.path}`;
        answerFailure(ctx, scimOf(ctx.path), { status, body: errorBodyOfStatus(status, message) });
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
      const scim = scimOf(ctx.path);
      answerFailure(ctx, scim, response);
      if (allow) ctx.set('Allow', allow);
      if (scim && response.status === 401) ctx.set('WWW-Authenticate', 'Bearer');
    }
  };
}
