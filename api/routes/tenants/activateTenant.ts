import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Tenant, TenantActivate } from '../../../domain/schemas/tenant.ts';
import { changeTenantStatus } from '../../../domain/tenants/changeTenantStatus.ts';
import { toTenant } from '../../../domain/tenants/tenantResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { afterClaimsChanged } from '../../tenantActors/afterClaimsChanged.ts';

export const activateTenantRoute = defineRoute({
  method: 'post',
  path: '/v1/tenants/{id}/activate',
  operationId: 'activateTenant',
  summary: 'Move a tenant to active from any state, applying plan and contract fields',
  tags: ['tenants'],
  params: IdParams,
  body: TenantActivate,
  bodyRequired: false,
  responses: {
    200: { description: 'the updated tenant', schema: Tenant },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => {
    const { tenant, claimsPushCommandId } = await changeTenantStatus(deps.stores.tenants, params.id, { kind: 'activate', body }, meta);
    afterClaimsChanged(deps, tenant.id, claimsPushCommandId);
    return { status: 200, body: toTenant(tenant) };
  },
});
