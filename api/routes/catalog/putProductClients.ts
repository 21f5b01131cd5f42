import { CatalogEntry, ProductClientsPut, ProductParams } from '../../../domain/schemas/catalog.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { putProductClients } from '../../../domain/catalog/putProductClients.ts';
import { toCatalogEntry } from '../../../domain/catalog/catalogEntryResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const putProductClientsRoute = defineRoute({
  method: 'put',
  path: '/v1/catalog/{product}/clients',
  operationId: 'putProductClients',
  access: 'registry:admin',
  acrossTenants: "name a product's sign-in clients, which every tenant's sign-ins are judged by",
  summary:
    "Name the identity provider's clients that sign a product's users in (replacing those it had) and what its sign-ins do while the registry cannot be asked (fail: open, the default, or closed). A sign-in for one of them needs a current entitlement to the product (SPEC-EXTENSIONS §15). A client belongs to at most one product: one another product has is 409 and nothing changes. registry:admin only, even with AUTH_REQUIRE_SCOPES=false",
  tags: ['catalog'],
  extension: true,
  params: ProductParams,
  body: ProductClientsPut,
  responses: {
    200: { description: 'the catalog entry', schema: CatalogEntry },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such product', schema: ErrorBody },
    409: { description: 'a client another product has', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => ({ status: 200, body: toCatalogEntry(await putProductClients(deps, params.product, body, meta)) }),
});
