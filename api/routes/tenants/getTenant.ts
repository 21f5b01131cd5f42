import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Tenant } from '../../../domain/schemas/tenant.ts';
import { findTenant } from '../../../domain/tenants/findTenant.ts';
import { toTenant } from '../../../domain/tenants/tenantResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const getTenantRoute = defineRoute({
  method: 'get',
  path: '/v1/tenants/{id}',
  operationId: 'getTenant',
  access: 'tenants:read',
  tenantIn: 'params.id',
  summary: 'Get a tenant by id',
  tags: ['tenants'],
  params: IdParams,
  responses: {
    200: { description: 'the tenant', schema: Tenant },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ params }, { deps }) => ({ status: 200, body: toTenant(await findTenant(deps.stores.tenants, { by: 'id', id: params.id })) }),
});
