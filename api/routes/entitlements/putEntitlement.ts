import { ErrorBody } from '../../../domain/schemas/common.ts';
import { EntitlementPut, TenantProduct, TenantProductParams } from '../../../domain/schemas/entitlement.ts';
import { putEntitlement } from '../../../domain/entitlements/putEntitlement.ts';
import { toTenantProduct } from '../../../domain/entitlements/tenantProductResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

/** The entitlement just put is the one DELETE revokes. */
const REVOKE_LINK = {
  revokeEntitlement: { operationId: 'revokeEntitlement', parameters: { id: '$request.path.id', product: '$request.path.product' } },
};

export const putEntitlementRoute = defineRoute({
  method: 'put',
  path: '/v1/tenants/{id}/entitlements/{product}',
  operationId: 'putEntitlement',
  access: 'tenants:write',
  tenantIn: 'params.id',
  summary: 'Grant a catalog product to a tenant, or change its entitlement (enabled, config, expires_at)',
  tags: ['entitlements'],
  extension: true,
  params: TenantProductParams,
  body: EntitlementPut,
  bodyRequired: false,
  responses: {
    200: { description: 'the changed (or unchanged) entitlement', schema: TenantProduct, links: REVOKE_LINK },
    201: { description: 'the new entitlement', schema: TenantProduct, links: REVOKE_LINK },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant, or the product is not in the catalog', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => {
    const { entitlement, created } = await putEntitlement(deps, params.id, params.product, body, meta);
    return { status: created ? 201 : 200, body: toTenantProduct(entitlement) };
  },
});
