import type Router from '@koa/router';
import type { Middleware } from 'koa';

/**
 * Wraps the router: a path the router knows, asked with a method it does not serve there (any method, TRACE and
 * ones the router has never heard of included), answers 405 with `Allow`; OPTIONS answers 204 with `Allow`.
 * Unknown paths stay 404. The router's own allowedMethods() would answer 501 (a server error) for unknown methods.
 * Where several templates match a path, `Allow` lists the methods of the most literal ones (as the OpenAPI document has them).
 */
export function methodNotAllowed(router: Router): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body != null) return;
    const matched = router.match(ctx.path, ctx.method).path;
    if (matched.length === 0) return;
    // A path two templates match (`/Users/.search` and `/Users/{uid}`) is the most literal one's: fewest parameters.
    const fewest = Math.min(...matched.map((layer) => layer.paramNames.length));
    const layers = matched.filter((layer) => layer.paramNames.length === fewest);
    const allowed = [...new Set(layers.flatMap((layer) => layer.methods))].sort().join(', ');
    ctx.set('Allow', allowed);
    ctx.status = ctx.method === 'OPTIONS' ? 204 : 405;
  };
}
