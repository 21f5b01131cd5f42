import type { Middleware } from 'koa';
import type Router from '@koa/router';
import { AppError, invalidInput } from '../../domain/errors.ts';
import type { RequestMeta } from '../../domain/requestMeta.ts';
import type { AppContext } from '../appDependencies.ts';
import { grants, scopesOf } from '../auth/scopes.ts';
import { readJsonBody } from '../middleware/readJsonBody.ts';
import { jsonInputProblem, parseInput } from './parseInput.ts';
import { requestMeta } from './requestMeta.ts';
import type { AnyRoute, RouteScope } from './routeDefinition.ts';

/** Express-style path for the router: /v1/tenants/{id} → /v1/tenants/:id */
export const routerPath = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ':$1');

export function mountRoute(router: Router, route: AnyRoute, context: AppContext): void {
  router[route.method](routerPath(route.path), routeMiddleware(route, context));
}

/** The operation as Koa middleware: validates its input, runs the handler, writes its response. */
export function routeMiddleware(route: AnyRoute, context: AppContext): Middleware {
  const { authConfig } = context;
  const needed = authConfig.enabled && authConfig.requireScopes && route.access !== 'public' ? route.access : undefined;
  const template = route.path;
  return async (ctx) => {
    // The route template, for metrics and traces: never the raw path, which carries ids.
    ctx.state.route = template;
    if (needed && !grants(scopesOf(ctx.state.principal), needed)) {
      throw new AppError('forbidden', `this operation needs a token with the scope ${needed} (or registry:admin)`);
    }
    const params = route.params ? parseInput(route.params, ctx.params, 'path') : {};
    const queryProblem = jsonInputProblem(ctx.query);
    if (queryProblem) throw invalidInput(`query: ${queryProblem}`);
    const query = route.query ? parseInput(route.query, ctx.query, 'query') : {};
    let body: unknown;
    if (route.body) {
      const raw = await readJsonBody(ctx, context.settings.BODY_LIMIT_BYTES);
      if (raw === undefined && route.bodyRequired !== false) throw invalidInput('request body is required');
      const bodyProblem = jsonInputProblem(raw);
      if (bodyProblem) throw invalidInput(`body: ${bodyProblem}`);
      // Only an absent body counts as none: a JSON null is a body, and not the object the operation takes.
      body = parseInput(route.body, raw === undefined ? {} : raw, 'body');
    }
    let meta: RequestMeta | undefined;
    const scope: RouteScope = {
      get meta() {
        return (meta ??= requestMeta(ctx));
      },
      deps: context,
      ctx,
    };
    const response = await route.handler({ params, query, body } as never, scope);
    ctx.status = response.status;
    if (response.jsonText !== undefined) {
      ctx.type = 'application/json';
      ctx.body = response.jsonText;
    } else if (response.body !== undefined) ctx.body = response.body;
  };
}

/**
 * Operations whose path has no parameters, found by one map lookup instead of the router's walk over every route
 * (verify, claims and the audit log are all of this kind). Anything else, including other spellings of these paths
 * the router would also accept and methods they do not allow, goes on to the router.
 */
export function exactPathRoutes(routes: AnyRoute[], context: AppContext): Middleware {
  const byMethodAndPath = new Map<string, Middleware>();
  for (const route of routes) {
    if (!route.path.includes('{')) byMethodAndPath.set(`${route.method.toUpperCase()} ${route.path}`, routeMiddleware(route, context));
  }
  return (ctx, next) => {
    const route = byMethodAndPath.get(`${ctx.method} ${ctx.path}`);
    return route ? route(ctx, next) : next();
  };
}
