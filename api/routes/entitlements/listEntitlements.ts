import { ErrorBody, TenantIdQuery } from '../../../domain/schemas/common.ts';
import { TenantProductList } from '../../../domain/schemas/entitlement.ts';
import { entitlementsDocument } from '../../../domain/entitlements/entitlementsDocument.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listEntitlementsRoute = defineRoute({
  method: 'get',
  path: '/v1/entitlements',
  operationId: 'listEntitlements',
  access: 'tenants:read',
  tenantIn: 'query.tenant_id',
  summary: "List a tenant's product entitlements",
  tags: ['entitlements'],
  query: TenantIdQuery,
  responses: {
    200: { description: 'entitlements', schema: TenantProductList },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ query }, { deps }) => ({ status: 200, jsonText: await entitlementsDocument(deps.stores.tenants, deps.cache, query.tenant_id) }),
});
