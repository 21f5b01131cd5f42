import { CatalogRequest } from '../../../domain/schemas/catalog.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { requestProduct } from '../../../domain/catalog/requestProduct.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const requestProductRoute = defineRoute({
  method: 'post',
  path: '/v1/catalog/request',
  operationId: 'requestProduct',
  access: 'tenants:write',
  tenantIn: 'body.tenant_id',
  summary: 'Ask sales for a product: records catalog.product_requested, grants nothing',
  tags: ['catalog'],
  body: CatalogRequest,
  responses: {
    202: { description: 'accepted; sales follows up' },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant or product', schema: ErrorBody },
  },
  handler: async ({ body }, { meta, deps }) => {
    await requestProduct(deps.stores, body, meta);
    return { status: 202 };
  },
});
