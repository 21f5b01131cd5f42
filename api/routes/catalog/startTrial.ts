import { CatalogRequest } from '../../../domain/schemas/catalog.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { TenantProduct } from '../../../domain/schemas/entitlement.ts';
import { startTrial } from '../../../domain/catalog/startTrial.ts';
import { toTenantProduct } from '../../../domain/entitlements/tenantProductResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const startTrialRoute = defineRoute({
  method: 'post',
  path: '/v1/catalog/trial-request',
  operationId: 'startTrial',
  access: 'tenants:write',
  tenantIn: 'body.tenant_id',
  summary: 'Start a 14-day trial entitlement of a product',
  tags: ['catalog'],
  body: CatalogRequest,
  responses: {
    201: { description: 'the trial entitlement', schema: TenantProduct },
    400: { description: 'invalid input, or the product has no trial', schema: ErrorBody },
    404: { description: 'no such tenant or product', schema: ErrorBody },
    409: { description: 'the tenant already has or had the product, or is frozen or archived', schema: ErrorBody },
  },
  handler: async ({ body }, { meta, deps }) => {
    const entitlement = await startTrial(deps, body, meta);
    return { status: 201, body: toTenantProduct(entitlement) };
  },
});
