import { ErrorBody } from '../../../domain/schemas/common.ts';
import { SlugParams, Tenant } from '../../../domain/schemas/tenant.ts';
import { tenantDocument } from '../../../domain/tenants/tenantDocument.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const getTenantBySlugRoute = defineRoute({
  method: 'get',
  path: '/v1/tenants/by-slug/{slug}',
  operationId: 'getTenantBySlug',
  access: 'tenants:read',
  summary: 'Get a tenant by slug',
  tags: ['tenants'],
  params: SlugParams,
  responses: {
    200: { description: 'the tenant', schema: Tenant },
    400: { description: 'invalid slug', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ params }, { deps, caller }) => ({ status: 200, jsonText: await tenantDocument(deps.stores.tenants, deps.cache, { by: 'slug', slug: params.slug }, caller.reach) }),
});
