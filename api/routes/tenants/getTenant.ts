import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Tenant } from '../../../domain/schemas/tenant.ts';
import { tenantDocument } from '../../../domain/tenants/tenantDocument.ts';
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
  handler: async ({ params }, { deps }) => ({ status: 200, jsonText: await tenantDocument(deps.stores.tenants, deps.cache, { by: 'id', id: params.id }) }),
});
