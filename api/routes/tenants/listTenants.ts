import { ErrorBody } from '../../../domain/schemas/common.ts';
import { TenantListQuery, TenantPage } from '../../../domain/schemas/tenant.ts';
import { listTenants } from '../../../domain/tenants/listTenants.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listTenantsRoute = defineRoute({
  method: 'get',
  path: '/v1/tenants',
  operationId: 'listTenants',
  access: 'tenants:read',
  summary: 'List tenants newest first, filtered by status, kind, plan and a case-insensitive prefix of slug or name (q), in pages (limit 1–500, default 50; cursor)',
  tags: ['tenants'],
  extension: true,
  query: TenantListQuery,
  responses: { 200: { description: 'a page of tenants', schema: TenantPage }, 400: { description: 'invalid input', schema: ErrorBody } },
  handler: async ({ query }, { deps, caller }) => {
    return { status: 200, jsonText: await listTenants(deps.stores.tenants, deps.cache, query, caller.reach) };
  },
});
