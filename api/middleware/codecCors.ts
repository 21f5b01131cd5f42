import type { Middleware } from 'koa';

/**
 * CORS for the codec endpoint only: the Temporal Web UI, on its own origin, calls it from the operator's browser. The
 * preflight (OPTIONS, which carries no credentials) is answered here, before authentication; the POST that follows
 * is authenticated and scoped like any other route. Other origins get no CORS headers, so browsers refuse them.
 */
export function codecCors(allowedOrigins: readonly string[]): Middleware {
  const allowed = new Set(allowedOrigins);
  return (ctx, next) => {
    if (!ctx.path.startsWith('/codec/')) return next();
    const origin = ctx.get('Origin');
    if (origin && allowed.has(origin)) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Credentials', 'true');
      ctx.vary('Origin');
      if (ctx.method === 'OPTIONS') {
        ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
        // Whatever headers the Web UI version asks for (content-type, x-namespace, authorization, ...): the origin is vetted.
        ctx.set('Access-Control-Allow-Headers', ctx.get('Access-Control-Request-Headers') || 'content-type, x-namespace, authorization');
        ctx.set('Access-Control-Max-Age', '600');
        ctx.status = 204;
        return undefined;
      }
    }
    return next();
  };
}
