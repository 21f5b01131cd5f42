import { CatalogList } from '../../../domain/schemas/catalog.ts';
import { toCatalogEntry } from '../../../domain/catalog/catalogEntryResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listCatalogRoute = defineRoute({
  method: 'get',
  path: '/v1/catalog',
  operationId: 'listCatalog',
  access: 'tenants:read',
  summary: 'List the products a tenant can request',
  tags: ['catalog'],
  responses: { 200: { description: 'the catalog', schema: CatalogList } },
  handler: async (_input, { deps }) => ({ status: 200, body: { items: (await deps.stores.catalog.list()).map(toCatalogEntry) } }),
});
