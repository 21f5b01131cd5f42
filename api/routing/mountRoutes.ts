import type { Context, Middleware } from 'koa';
import type Router from '@koa/router';
import { AppError, invalidInput } from '../../domain/errors.ts';
import type { RequestMeta } from '../../domain/requestMeta.ts';
import type { Caller } from '../../domain/access/caller.ts';
import { requireReach, requireUnbound } from '../../domain/access/tenantReach.ts';
import { callerOf } from '../auth/callerBinding.ts';
import type { AppContext } from '../appDependencies.ts';
import { ADMIN_SCOPE, grants, scopesOf, type Scope } from '../auth/scopes.ts';
import { readJsonBody } from '../middleware/readJsonBody.ts';
import { jsonInputProblem, parseInput } from './parseInput.ts';
import { queryObject } from './queryObject.ts';
import { requestMeta } from './requestMeta.ts';
import type { AnyRoute, RouteScope } from './routeDefinition.ts';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const missingScope = (needed: Scope) => new AppError('forbidden', `this operation needs a token with the scope ${needed} (or registry:admin)`);

/** Express-style path for the router: /v1/tenants/{id} → /v1/tenants/:id */
export const routerPath = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ':$1');

export function mountRoute(router: Router, route: AnyRoute, context: AppContext): void {
  router[route.method](routerPath(route.path), routeMiddleware(route, context));
}

/** The operation as Koa middleware: validates its input, runs the handler, writes its response. */
export function routeMiddleware(route: AnyRoute, context: AppContext): Middleware {
  const { authConfig } = context;
  // An operation for registry:admin alone (the codec, which decrypts invite links) keeps it even with AUTH_REQUIRE_SCOPES=false.
  const scoped = authConfig.enabled && (authConfig.requireScopes || route.access === ADMIN_SCOPE);
  const needed = scoped && route.access !== 'public' ? route.access : undefined;
  const template = route.path;
  const contentType = route.mediaType ? `${route.mediaType}; charset=utf-8` : JSON_CONTENT_TYPE;
  return async (ctx) => {
    // The route template, for metrics and traces: never the raw path, which carries ids.
    ctx.state.route = template;
    if (needed && !grants(scopesOf(ctx.state.principal), needed)) throw missingScope(needed);
    const params = route.params ? parseInput(route.params, ctx.params, 'path') : {};
    const search = ctx.querystring;
    const query = route.query || search !== '' ? queryOf(route, search) : {};
    let body: unknown;
    if (route.body) {
      const raw = await readJsonBody(ctx, Math.max(route.bodyLimitBytes ?? 0, context.settings.BODY_LIMIT_BYTES));
      if (raw === undefined && route.bodyRequired !== false) throw invalidInput('request body is required');
      const bodyProblem = jsonInputProblem(raw);
      if (bodyProblem) throw invalidInput(`body: ${bodyProblem}`);
      // Only an absent body counts as none: a JSON null is a body, and not the object the operation takes.
      body = parseInput(route.body, raw === undefined ? {} : raw, 'body');
    }
    const alsoNeeded = scoped && route.scopeOfInput ? route.scopeOfInput({ params, query, body } as never) : undefined;
    if (alsoNeeded && !grants(scopesOf(ctx.state.principal), alsoNeeded)) throw missingScope(alsoNeeded);
    const scope = new OperationScope(context, ctx);
    if (route.acrossTenants !== undefined) requireUnbound(scope.caller.reach, route.acrossTenants);
    if (route.tenantIn !== undefined) {
      const [where, field] = route.tenantIn.split('.') as ['params' | 'query' | 'body', string];
      const tenantId = ({ params, query, body } as Record<string, Record<string, unknown> | undefined>)[where]?.[field];
      if (typeof tenantId === 'string') requireReach(scope.caller.reach, tenantId);
    }
    const response = await route.handler({ params, query, body } as never, scope);
    ctx.status = response.status;
    if (response.headers) ctx.set(response.headers);
    if (response.jsonText !== undefined) {
      // What `ctx.type = 'application/json'` sets, without its look-up in the MIME table on every answer.
      ctx.set('Content-Type', contentType);
      ctx.body = response.jsonText;
    } else if (response.body !== undefined) {
      // Koa keeps a Content-Type set before the body when it names JSON.
      if (route.mediaType) ctx.set('Content-Type', contentType);
      ctx.body = response.body;
    }
  };
}

/**
 * The operation's query as its schema makes it ({} for one that takes none). A query's values are texts (or lists of
 * them) from URLSearchParams, so U+0000 is the one thing jsonInputProblem could find in them, and only `%00` makes it.
 */
function queryOf(route: AnyRoute, search: string): Record<string, unknown> {
  const raw = queryObject(search);
  const problem = search.includes('%00') ? jsonInputProblem(raw) : undefined;
  if (problem) throw invalidInput(`query: ${problem}`);
  return route.query ? parseInput(route.query, raw, 'query') : {};
}

/**
 * What a handler gets beside its input. A class, its getter on the prototype: an object literal with a getter made a
 * new closure per request, and V8 keeps accessors in the object's hidden class, so every request made a hidden class
 * of its own in the old generation, a full collection every few hundred milliseconds under load (issue #19).
 */
class OperationScope implements RouteScope {
  readonly deps: AppContext;
  readonly ctx: Context;
  #meta: RequestMeta | undefined;
  #caller: Caller | undefined;

  constructor(deps: AppContext, ctx: Context) {
    this.deps = deps;
    this.ctx = ctx;
  }

  /** Who asked and from where, made on first use (the operations that write the audit log). */
  get meta(): RequestMeta {
    return (this.#meta ??= requestMeta(this.ctx));
  }

  /** What the token binds the caller to, made on first use. */
  get caller(): Caller {
    return (this.#caller ??= callerOf(this.ctx.state.principal as Record<string, unknown> | undefined));
  }

  // Kept like an operation for registry:admin alone (the codec's): what every tenant shares is no tenant operator's.
  get sharedAuthority(): boolean {
    return !this.deps.authConfig.enabled || grants(scopesOf(this.ctx.state.principal), ADMIN_SCOPE);
  }
}

/** Like the router's: a parameter that is not valid percent-encoding is passed on as it came. */
function decodedParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A path template as segments: a literal to compare, or the name of the parameter the segment is. */
type TemplateSegment = { literal: string } | { param: string };

const templateSegments = (path: string): TemplateSegment[] =>
  path.split('/').map((segment) => {
    const param = /^\{(\w+)\}$/.exec(segment)?.[1];
    return param === undefined ? { literal: segment } : { param };
  });

/**
 * Every operation found without the router's per-request work (a regular expression per route, arrays of the
 * matches, a middleware chain composed anew, the parameters matched twice): one map lookup for a path without
 * parameters (verify, claims, the audit log), a comparison of segments for one with them (a tenant by id or slug,
 * its entitlements, a user's memberships). Among the templates of one method the first registered that fits wins, as
 * in the router. Only the canonical spelling is taken here; anything else, including other spellings the router also
 * accepts (another letter case, a trailing slash) and methods a path does not allow, goes on to the router.
 */
export function routeMatcher(routes: AnyRoute[], context: AppContext): Middleware {
  const exact = new Map<string, Middleware>();
  const templated = new Map<string, { segments: TemplateSegment[]; middleware: Middleware }[]>();
  for (const route of routes) {
    const method = route.method.toUpperCase();
    if (!route.path.includes('{')) {
      exact.set(`${method} ${route.path}`, routeMiddleware(route, context));
      continue;
    }
    const segments = templateSegments(route.path);
    const key = `${method} ${segments.length}`;
    const sameShape = templated.get(key) ?? [];
    sameShape.push({ segments, middleware: routeMiddleware(route, context) });
    templated.set(key, sameShape);
  }
  return (ctx, next) => {
    const path = ctx.path;
    const route = exact.get(`${ctx.method} ${path}`);
    if (route) return route(ctx, next);
    const parts = path.split('/');
    const candidates = templated.get(`${ctx.method} ${parts.length}`);
    if (candidates) {
      for (const { segments, middleware } of candidates) {
        const params = paramsOf(segments, parts);
        if (params) {
          ctx.params = params;
          return middleware(ctx, next);
        }
      }
    }
    return next();
  };
}

/**
 * The template's parameters in `parts`, decoded, or undefined when a literal differs or a parameter is empty. Every
 * segment is compared before any is decoded: templates tried before the one that fits (a SCIM list after the
 * endpoint's discovery paths) cost no decoding and no object.
 */
function paramsOf(segments: TemplateSegment[], parts: string[]): Record<string, string> | undefined {
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    if ('literal' in segment ? parts[i] !== segment.literal : parts[i] === '') return undefined;
  }
  let params: Record<string, string> | undefined;
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    if ('param' in segment) (params ??= {})[segment.param] = decodedParam(parts[i]!);
  }
  return params;
}
