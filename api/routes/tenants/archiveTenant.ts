import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Tenant, TenantArchive } from '../../../domain/schemas/tenant.ts';
import { archiveTenant } from '../../../domain/tenants/archiveTenant.ts';
import { toTenant } from '../../../domain/tenants/tenantResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const archiveTenantRoute = defineRoute({
  method: 'post',
  path: '/v1/tenants/{id}/archive',
  operationId: 'archiveTenant',
  access: 'tenants:write',
  tenantIn: 'params.id',
  summary: "Archive a tenant: its API keys stop verifying (TENANT_INACTIVE) and its users' claims say archived",
  tags: ['tenants'],
  extension: true,
  params: IdParams,
  body: TenantArchive,
  bodyRequired: false,
  responses: {
    200: { description: 'the archived tenant', schema: Tenant },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
    409: { description: 'already archived', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => {
    const tenant = await archiveTenant(deps, params.id, body, meta);
    return { status: 200, body: toTenant(tenant) };
  },
});
