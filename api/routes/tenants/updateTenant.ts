import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Tenant, TenantPatch } from '../../../domain/schemas/tenant.ts';
import { toTenant } from '../../../domain/tenants/tenantResponse.ts';
import { updateTenant } from '../../../domain/tenants/updateTenant.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const updateTenantRoute = defineRoute({
  method: 'patch',
  path: '/v1/tenants/{id}',
  operationId: 'updateTenant',
  access: 'tenants:write',
  tenantIn: 'params.id',
  summary: 'Change a tenant: name, plan, sales_owner, erp_customer_id, payment_cust_id, or trial_ends_at while in trial (null clears an optional field)',
  tags: ['tenants'],
  extension: true,
  params: IdParams,
  body: TenantPatch,
  responses: {
    200: { description: 'the tenant', schema: Tenant },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
    409: { description: 'trial_ends_at of a tenant not in trial', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => {
    const tenant = await updateTenant(deps, params.id, body, meta);
    return { status: 200, body: toTenant(tenant) };
  },
});
