import type { Context, Middleware } from 'koa';
import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { invalidInput } from '../domain/errors.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { Sql } from '../domain/sql.ts';
import { nativePool } from '../store/nativePool.ts';
import type { AppDependencies } from './appDependencies.ts';
import { readJsonBody } from './middleware/readJsonBody.ts';

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteResponse {
  status: number;
  body?: unknown;
  /** The body already serialised as JSON (its schema still the declared one), sent as it is. */
  jsonText?: string;
}

/**
 * What a handler gets besides its validated input. `em` (a fork of the ORM's EntityManager) and `meta` are made
 * on first access: the hot paths that answer from the registry cache never fork, so they pass `() => scope.em`.
 */
export interface RouteScope {
  readonly em: EntityManager;
  readonly meta: RequestMeta;
  /** The pool under the ORM, for single statements on hot paths (domain/sql.ts). */
  sql(): Promise<Sql>;
  deps: AppDependencies;
  ctx: Context;
}

/** One operation: its contract (which also feeds the OpenAPI document) and a thin handler. */
export interface RouteDefinition<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI form, e.g. /v1/tenants/{id} */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  bodyRequired?: boolean;
  /** Documents a body the handler reads itself (the verify endpoint must never answer 4xx). */
  requestBodyForDocs?: z.ZodType;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  /** Marks operations that SPEC.md does not list (documented as additions). */
  extension?: boolean;
  handler: (input: { params: z.output<P>; query: z.output<Q>; body: z.output<B> }, scope: RouteScope) => Promise<RouteResponse>;
}

export type AnyRoute = RouteDefinition<AnyObject, AnyObject, z.ZodType>;

export const defineRoute = <P extends AnyObject, Q extends AnyObject, B extends z.ZodType>(route: RouteDefinition<P, Q, B>) =>
  route as unknown as AnyRoute;

function describeIssues(error: z.ZodError, where: string): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${[where, ...issue.path].join('.')}: ${issue.message}`)
    .join('; ');
}

function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInput(describeIssues(result.error, where));
  return result.data;
}

/** Deeper JSON is no real use and makes PostgreSQL's jsonb (and recursive code) fail: a 400, not a 500. */
const MAX_JSON_DEPTH = 64;

/**
 * What PostgreSQL would refuse as a database error (500) is invalid input (400): U+0000 in any string or key
 * (text and jsonb cannot hold it) and absurd nesting. Iterative, so deep input cannot overflow the stack here.
 */
function jsonInputProblem(value: unknown): string | undefined {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return 'NUL characters are not allowed';
    } else if (item !== null && typeof item === 'object') {
      if (depth >= MAX_JSON_DEPTH) return `nesting deeper than ${MAX_JSON_DEPTH} levels is not allowed`;
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000')) return 'NUL characters are not allowed';
        pending.push([child, depth + 1]);
      }
    }
  }
  return undefined;
}

/** Express-style path for the router: /v1/tenants/{id} → /v1/tenants/:id */
export const routerPath = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ':$1');

function requestMeta(ctx: Context): RequestMeta {
  const principal = ctx.state.principal as { sub?: string; azp?: string; client_id?: string } | undefined;
  const meta: RequestMeta = { sourceIp: ctx.ip, userAgent: ctx.get('user-agent') || undefined };
  const actor = principal?.azp ?? principal?.client_id ?? principal?.sub;
  if (actor) {
    meta.actorId = actor;
    meta.actorType = 'service';
  }
  return meta;
}

export function mountRoute(router: Router, route: AnyRoute, deps: AppDependencies): void {
  router[route.method](routerPath(route.path), routeMiddleware(route, deps));
}

/** The operation as Koa middleware: validates its input, runs the handler, writes its response. */
export function routeMiddleware(route: AnyRoute, deps: AppDependencies): Middleware {
  return async (ctx) => {
    const params = route.params ? parse(route.params, ctx.params, 'path') : {};
    const queryProblem = jsonInputProblem(ctx.query);
    if (queryProblem) throw invalidInput(`query: ${queryProblem}`);
    const query = route.query ? parse(route.query, ctx.query, 'query') : {};
    let body: unknown;
    if (route.body) {
      const raw = await readJsonBody(ctx, deps.settings.BODY_LIMIT_BYTES);
      if (raw === undefined && route.bodyRequired !== false) throw invalidInput('request body is required');
      const bodyProblem = jsonInputProblem(raw);
      if (bodyProblem) throw invalidInput(`body: ${bodyProblem}`);
      body = parse(route.body, raw ?? {}, 'body');
    }
    let em: EntityManager | undefined;
    let meta: RequestMeta | undefined;
    const scope: RouteScope = {
      get em() {
        return (em ??= deps.orm.em.fork());
      },
      get meta() {
        return (meta ??= requestMeta(ctx));
      },
      sql: () => nativePool(deps.orm),
      deps,
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
export function exactPathRoutes(routes: AnyRoute[], deps: AppDependencies): Middleware {
  const byMethodAndPath = new Map<string, Middleware>();
  for (const route of routes) {
    if (!route.path.includes('{')) byMethodAndPath.set(`${route.method.toUpperCase()} ${route.path}`, routeMiddleware(route, deps));
  }
  return (ctx, next) => {
    const route = byMethodAndPath.get(`${ctx.method} ${ctx.path}`);
    return route ? route(ctx, next) : next();
  };
}

