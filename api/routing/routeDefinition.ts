import type { Context } from 'koa';
import type { z } from 'zod';
import type { RequestMeta } from '../../domain/requestMeta.ts';
import type { Caller } from '../../domain/access/caller.ts';
import type { AppContext } from '../appDependencies.ts';
import type { RouteAccess, Scope } from '../auth/scopes.ts';

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteResponse {
  status: number;
  body?: unknown;
  /** The body already serialised as JSON, as text or its UTF-8 bytes (its schema still the declared one), sent as it is. */
  jsonText?: string | Buffer;
  /** Response headers the operation sets (an audit page's ETag and Cache-Control). */
  headers?: Record<string, string>;
}

/** What a handler gets besides its validated input; `meta` is made on first access (the hot paths never need it). */
export interface RouteScope {
  readonly meta: RequestMeta;
  /** What the caller's token binds it to (its tenants, its product); made on first access. */
  readonly caller: Caller;
  /**
   * Whether the caller may change what every tenant shares (the shared roles, the permissions catalog): a token with
   * registry:admin, whatever AUTH_REQUIRE_SCOPES says, or any caller when authentication is off.
   */
  readonly sharedAuthority: boolean;
  deps: AppContext;
  ctx: Context;
}

/** An OpenAPI link: an operation that takes a value of this response (a runtime expression such as `$response.body#/tenant/id`). */
export interface ResponseLink {
  operationId: string;
  /** Values are runtime expressions or constants (OpenAPI allows both). */
  parameters?: Record<string, string>;
  /** A body for the linked operation, its values runtime expressions or constants. */
  requestBody?: Record<string, unknown>;
  description?: string;
}

/** One operation: its contract (which also feeds the OpenAPI document) and a thin handler. */
export interface RouteDefinition<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form, e.g. /v1/tenants/{id} */
  path: string;
  operationId: string;
  /** The scope a token needs when AUTH_ENABLED (SPEC-EXTENSIONS §5), or `public` for what needs no token at all. */
  access: RouteAccess;
  summary: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  bodyRequired?: boolean;
  /** A body limit of the operation's own where its schema admits more than BODY_LIMIT_BYTES (a SAML metadata document). */
  bodyLimitBytes?: number;
  /** Documents a body the handler reads itself (the verify endpoint must never answer 4xx). */
  requestBodyForDocs?: z.ZodType;
  /**
   * The JSON media type of the operation's bodies, its answers and refusals alike (default application/json): SCIM's
   * are application/scim+json (RFC 7644 §8.1). A body it takes may also come as application/json.
   */
  mediaType?: string;
  /** The body of the refusals the service answers before the handler runs (default the registry's Error body). */
  errorBody?: z.ZodType;
  /** `contentTypes`: the media types of the body when it is not JSON (default: the operation's mediaType). */
  responses: Record<number, { description: string; schema?: z.ZodType; contentTypes?: string[]; links?: Record<string, ResponseLink> }>;
  /** Marks operations that SPEC.md does not list (documented as additions). */
  extension?: boolean;
  /**
   * Where the operation names its tenant, checked against a tenant-bound caller before the handler runs (404 for a
   * tenant it may not reach); an operation that finds its tenant otherwise checks it in its service.
   */
  tenantIn?: 'params.id' | 'query.tenant_id' | 'body.tenant_id';
  /**
   * A scope the operation needs besides `access`, by what it is asked to do (a portal link's intent), checked like
   * `access` once the input is parsed: 403 without it.
   */
  scopeOfInput?: (input: { params: z.output<P>; query: z.output<Q>; body: z.output<B> }) => Scope;
  /** An operation over every tenant or none (creating one, the audit streams): refused to a tenant-bound caller. */
  acrossTenants?: string;
  /**
   * Answered as it arrives, never waiting for a slot nor refused for load (api/requestAdmissionOf.ts): the probes, since
   * a loaded process is still alive, and a replica unready under load would move its load onto the others.
   */
  unqueued?: boolean;
  handler: (input: { params: z.output<P>; query: z.output<Q>; body: z.output<B> }, scope: RouteScope) => Promise<RouteResponse>;
}

export type AnyRoute = RouteDefinition<AnyObject, AnyObject, z.ZodType>;

export const defineRoute = <P extends AnyObject, Q extends AnyObject, B extends z.ZodType>(route: RouteDefinition<P, Q, B>) =>
  route as unknown as AnyRoute;
