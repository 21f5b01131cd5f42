import Koa, { type Middleware } from 'koa';
import Router from '@koa/router';
import type { AppContext } from './appDependencies.ts';
import { errorHandler } from './middleware/errorHandler.ts';
import { requestScope } from './middleware/requestScope.ts';
import { requestMetrics } from './middleware/requestMetrics.ts';
import { requestTracing } from './middleware/requestTracing.ts';
import { methodNotAllowed } from './middleware/methodNotAllowed.ts';
import { uriLimit } from './middleware/uriLimit.ts';
import { listenerScope } from './listenerScope.ts';
import { routeMatcher, routerPath } from './routing/mountRoutes.ts';
import type { AnyRoute } from './routing/routeDefinition.ts';
import { SCIM_PATH_PREFIX } from './routes/scim/scimRoute.ts';

/**
 * The steps both apps run the same instances of: the address's limit before authentication, authentication, the
 * client's limit. Shared, a client's budgets are one whichever port it calls.
 */
export interface RequestGuards {
  beforeAuth?: Middleware;
  auth: Middleware;
  limits?: Middleware;
}

/**
 * The first steps of every request on either app: its metrics and trace, its id and access line, the error answers,
 * the URI limit, and the listener's paths (the other listener's are 404 before anything else).
 */
export function useRequestFrame(app: Koa, context: AppContext): void {
  if (context.metrics) app.use(requestMetrics(context.metrics));
  if (context.tracer) app.use(requestTracing(context.tracer));
  app.use(requestScope(context.log));
  app.use(errorHandler({ scimPrefix: SCIM_PATH_PREFIX }));
  app.use(uriLimit());
  app.use(listenerScope());
}

/** The guards in their order, each when configured. */
export function useGuards(app: Koa, guards: RequestGuards): void {
  if (guards.beforeAuth) app.use(guards.beforeAuth);
  app.use(guards.auth);
  if (guards.limits) app.use(guards.limits);
}

/**
 * INTERNAL_PORT's app: the calls other services make (key verification, the identity provider's claims and sign-in
 * decisions) and the probes. It runs what they need, as the public app runs it: the access line, metrics, traces,
 * error answers, the URI limit, the address and client limits and authentication (the same instances), then a matcher of these routes
 * alone. The public app's other steps (the codec's CORS, the admin portal, the OpenAPI document, a router of every
 * path) are not on their way. Any other path is answered 404 before authentication, as the public app answers these.
 */
export function createInternalApp(context: AppContext, routes: AnyRoute[], guards: RequestGuards): Koa {
  const app = new Koa({ proxy: context.settings.TRUST_PROXY, maxIpsCount: context.settings.TRUST_PROXY_HOPS });
  app.silent = true;
  useRequestFrame(app, context);
  useGuards(app, guards);
  // The router only answers which methods a known path has (405 with Allow); the matcher runs the operations.
  const known = new Router();
  for (const route of routes) known[route.method](routerPath(route.path), () => undefined);
  app.use(methodNotAllowed(known));
  app.use(routeMatcher(routes, context));
  return app;
}
