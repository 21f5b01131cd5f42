import { CatalogList } from '../../../domain/schemas/catalog.ts';
import { catalogDocument } from '../../../domain/catalog/catalogDocument.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listCatalogRoute = defineRoute({
  method: 'get',
  path: '/v1/catalog',
  operationId: 'listCatalog',
  access: 'tenants:read',
  summary: 'List the products a tenant can request',
  tags: ['catalog'],
  responses: { 200: { description: 'the catalog', schema: CatalogList } },
  handler: async (_input, { deps }) => ({ status: 200, jsonText: await catalogDocument(deps.stores.catalog, deps.cache) }),
});
