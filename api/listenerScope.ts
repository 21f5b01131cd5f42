import type { IncomingMessage, RequestListener } from 'node:http';
import type { Middleware } from 'koa';

/** The calls other services make (the identity provider's, products' key verifications): INTERNAL_PORT's paths. */
export const INTERNAL_PATH_PREFIX = '/v1/internal/';
/** Answered on both listeners, so either port can be probed. */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

const LISTENER = Symbol('listener');
type Listener = 'public' | 'internal';
type MarkedRequest = IncomingMessage & { [LISTENER]?: Listener };

/** The paths INTERNAL_PORT's listener serves: the internal calls and the probes. */
export const servedOnInternalListener = (path: string): boolean => path.startsWith(INTERNAL_PATH_PREFIX) || PROBE_PATHS.has(path);

/** One of the API's two listeners (with INTERNAL_PORT): marks each request with the listener it came in on. */
export function onListener(listener: Listener, handler: RequestListener): RequestListener {
  return (req, res) => {
    (req as MarkedRequest)[LISTENER] = listener;
    handler(req, res);
  };
}

/** The requests of each listener to its own app (with INTERNAL_PORT; without, one app serves the one port). */
export function byListener(publicHandler: RequestListener, internalHandler: RequestListener): RequestListener {
  return (req, res) => ((req as MarkedRequest)[LISTENER] === 'internal' ? internalHandler : publicHandler)(req, res);
}

/**
 * With INTERNAL_PORT each listener serves its own paths: /v1/internal/* only the internal one, everything else only
 * the public one (the probes both). The other's paths are answered as unknown paths are, 404 before authentication,
 * so a network policy on the internal port is what decides who reaches them. Without it, nothing is marked: one port
 * serves all.
 */
export function listenerScope(): Middleware {
  return async (ctx, next) => {
    const listener = (ctx.req as MarkedRequest)[LISTENER];
    if (listener !== undefined && !PROBE_PATHS.has(ctx.path) && ctx.path.startsWith(INTERNAL_PATH_PREFIX) !== (listener === 'internal')) {
      ctx.status = 404;
      return;
    }
    await next();
  };
}
