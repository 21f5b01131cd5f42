import type Router from '@koa/router';
import type { Middleware } from 'koa';

/**
 * Wraps the router: a path the router knows, asked with a method it does not serve there (any method, TRACE and
 * ones the router has never heard of included), answers 405 with `Allow`; OPTIONS answers 204 with `Allow`.
 * Unknown paths stay 404. The router's own allowedMethods() would answer 501 (a server error) for unknown methods.
 */
export function methodNotAllowed(router: Router): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body != null) return;
    const layers = router.match(ctx.path, ctx.method).path;
    if (layers.length === 0) return;
    const allowed = [...new Set(layers.flatMap((layer) => layer.methods))].sort().join(', ');
    ctx.set('Allow', allowed);
    ctx.status = ctx.method === 'OPTIONS' ? 204 : 405;
  };
}
