import { ErrorBody } from '../../../domain/schemas/common.ts';
import { TenantProductParams } from '../../../domain/schemas/entitlement.ts';
import { revokeEntitlement } from '../../../domain/entitlements/revokeEntitlement.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const revokeEntitlementRoute = defineRoute({
  method: 'delete',
  path: '/v1/tenants/{id}/entitlements/{product}',
  operationId: 'revokeEntitlement',
  access: 'tenants:write',
  tenantIn: 'params.id',
  summary: "Remove a tenant's entitlement to a product",
  tags: ['entitlements'],
  extension: true,
  params: TenantProductParams,
  responses: {
    204: { description: 'removed' },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant or entitlement', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps }) => {
    await revokeEntitlement(deps, params.id, params.product, meta);
    return { status: 204 };
  },
});
