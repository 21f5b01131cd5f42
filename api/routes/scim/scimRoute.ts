import { z } from 'zod';
import { authenticateDirectory } from '../../../domain/directories/authenticateDirectory.ts';
import type { DirectoryRecord } from '../../../domain/directories/directoryRecord.ts';
import { SCIM_MEDIA_TYPE } from '../../scimAnswer.ts';
import { Uuid } from '../../../domain/schemas/common.ts';
import { defineRoute, type RouteResponse, type RouteScope } from '../../routing/routeDefinition.ts';
import { publicBaseUrl } from '../directories/publicBaseUrl.ts';

/** Where the directories' SCIM endpoints live: the routes beneath authenticate their callers by directory token. */
export const SCIM_PATH_PREFIX = '/scim/v2/';

export const ScimDirectoryParams = z.object({ id: Uuid });
/** A resource's id in a SCIM path: any text; one that names nothing is SCIM's 404. */
const ScimResourceParams = ScimDirectoryParams.extend({ uid: z.string().min(1).max(255) });
/** Which attributes a resource is answered with (RFC 7644 §3.4.2.5): comma-separated names, one list or the other. */
export const ScimResourceQuery = z.object({
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
/** A whole number of a SCIM query, negative ones included: RFC 7644 §3.4.2.4 says how each is read, none is refused. */
const scimQueryInteger = (description: string) =>
  z
    .preprocess((value) => (typeof value === 'string' && /^-?\d{1,10}$/.test(value) ? Number(value) : value), z.int().min(-1_000_000_000).max(1_000_000_000))
    .meta({ description });

/** A SCIM list's query (RFC 7644 §3.4.2): a filter, 1-based paging, attributes. */
export const ScimListQuery = ScimResourceQuery.extend({
  filter: z.string().max(1000).optional(),
  startIndex: scimQueryInteger('the 1-based index of the first result; a value below 1 is read as 1').optional(),
  count: scimQueryInteger('the most results the page holds: a negative value is read as 0 (no results, totalResults still answered), one above 200 as 200').optional(),
});

/** A SCIM request's body: read as RFC 7643 says by the handler, so its refusals are SCIM's. */
export const ScimRequestBody = z.record(z.string(), z.unknown()).meta({ id: 'ScimRequest', description: 'an RFC 7643 resource or RFC 7644 PatchOp' });

/** A SCIM answer: any JSON the SCIM resource says, with its status. */
export const ScimBody = z.record(z.string(), z.unknown()).meta({ id: 'ScimResponse', description: 'an RFC 7643/7644 resource, list or error' });

/** A 201 of a resource made: its Location is its meta.location, the URI it is read at (RFC 7644 §3.3). */
export const created = (resource: Record<string, unknown>): RouteResponse => ({
  status: 201,
  body: resource,
  headers: { Location: (resource.meta as { location: string }).location },
});

/** What a SCIM handler runs with: the directory its token opened, and the directory's SCIM base URL. */
export interface ScimScope {
  directory: DirectoryRecord;
  base: string;
  scope: RouteScope;
}

/**
 * A route of a directory's SCIM endpoint: outside the OIDC service tokens (the directory's own bearer token,
 * checked here), its failures answered as RFC 7644 error bodies, never the registry's Error body.
 */
export function scimRoute<Q extends z.ZodObject<z.ZodRawShape>>(definition: {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  query?: Q;
  /** The operation takes a body (POST, PUT, PATCH). */
  body?: boolean;
  handler: (input: { query: z.output<Q>; params: Record<string, string>; body: unknown }, scim: ScimScope) => Promise<RouteResponse>;
}) {
  return defineRoute({
    method: definition.method,
    path: `/scim/v2/directories/{id}${definition.path}`,
    operationId: definition.operationId,
    access: 'public',
    summary: `SCIM 2.0 (the directory's bearer token): ${definition.summary}`,
    tags: ['scim'],
    extension: true,
    mediaType: SCIM_MEDIA_TYPE,
    errorBody: ScimBody,
    params: definition.path.includes('{uid}') ? ScimResourceParams : ScimDirectoryParams,
    ...(definition.query ? { query: definition.query } : {}),
    ...(definition.body ? { body: ScimRequestBody, bodyRequired: true } : {}),
    responses: {
      200: { description: 'the SCIM answer', schema: ScimBody },
      201: { description: 'the SCIM resource made; Location names its URI (RFC 7644 §3.3)', schema: ScimBody },
      204: { description: 'deleted' },
      404: { description: 'no such resource in this directory (SCIM error body)', schema: ScimBody },
      409: { description: 'a userName another user of the directory has, an account the tenant does not govern (uniqueness), or the tenant past SCIM_USERS_PER_TENANT_LIMIT (limit_reached) (SCIM error body)', schema: ScimBody },
      400: { description: 'invalid input (SCIM error body)', schema: ScimBody },
      401: { description: "no or another directory's token (SCIM error body)", schema: ScimBody },
      429: { description: "past the directory's budget (SCIM error body)", schema: ScimBody },
      501: { description: 'an operation this endpoint does not offer (SCIM error body)', schema: ScimBody },
    },
    // Failures are thrown: the error handler answers them beneath SCIM_PATH_PREFIX in RFC 7644's error body.
    handler: async (input, scope) => {
      const directory = await authenticateDirectory(scope.deps, input.params.id, scope.ctx.get('authorization') || undefined, scope.deps.scimLimits);
      const base = `${publicBaseUrl(scope.deps)}/scim/v2/directories/${directory.id}`;
      return definition.handler({ query: input.query as z.output<Q>, params: input.params as Record<string, string>, body: input.body }, { directory, base, scope });
    },
  });
}
