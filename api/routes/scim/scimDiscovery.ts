import { listResponse, resourceTypes, schemas, serviceProviderConfig } from '../../../domain/directories/scimDiscovery.ts';
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
