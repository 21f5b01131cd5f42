import { listResponse, resourceTypes, schemas, serviceProviderConfig } from '../../../domain/directories/scimDiscovery.ts';
import { ScimError } from '../../../domain/directories/scimError.ts';
import { scimRoute } from './scimRoute.ts';

export const scimServiceProviderConfigRoute = scimRoute({
  method: 'get',
  path: '/ServiceProviderConfig',
  operationId: 'scimServiceProviderConfig',
  summary: 'what the endpoint supports (PATCH and filters; no bulk, sort or ETags)',
  handler: async (_, { base }) => ({ status: 200, body: serviceProviderConfig(base) }),
});

export const scimResourceTypesRoute = scimRoute({
  method: 'get',
  path: '/ResourceTypes',
  operationId: 'scimResourceTypes',
  summary: 'the resource types: User and Group',
  handler: async (_, { base }) => ({ status: 200, body: listResponse(resourceTypes(base)) }),
});

export const scimSchemasRoute = scimRoute({
  method: 'get',
  path: '/Schemas',
  operationId: 'scimSchemas',
  summary: "the User and Group schemas' attributes this endpoint keeps",
  handler: async (_, { base }) => ({ status: 200, body: listResponse(schemas(base)) }),
});

/** One of a discovery list's entries by its id, or SCIM's 404. */
const oneOf = <T extends { id: string }>(entries: T[], id: string, what: string): T => {
  const entry = entries.find((e) => e.id === id);
  if (!entry) throw new ScimError('not_found', `no ${what} ${id} at this endpoint`);
  return entry;
};

export const scimResourceTypeRoute = scimRoute({
  method: 'get',
  path: '/ResourceTypes/{uid}',
  operationId: 'scimResourceType',
  summary: 'one resource type: User or Group',
  handler: async ({ params }, { base }) => ({ status: 200, body: oneOf(resourceTypes(base), params.uid!, 'resource type') }),
});

export const scimSchemaRoute = scimRoute({
  method: 'get',
  path: '/Schemas/{uid}',
  operationId: 'scimSchema',
  summary: "one schema by its URN: the User's or the Group's",
  handler: async ({ params }, { base }) => ({ status: 200, body: oneOf(schemas(base), params.uid!, 'schema') }),
});

export const scimSearchEverythingRoute = scimRoute({
  method: 'post',
  path: '/.search',
  operationId: 'scimSearchAll',
  summary: 'a search across resource types at once: not offered (501); search /Users/.search or /Groups/.search',
  body: true,
  handler: async () => {
    throw new ScimError('not_implemented', 'searching several resource types at once is not offered; POST /Users/.search or /Groups/.search');
  },
});
