import { ErrorBody } from '../../../domain/schemas/common.ts';
import { TenantCreate, TenantCreated } from '../../../domain/schemas/tenant.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { toTenant } from '../../../domain/tenants/tenantResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

/** A product every catalog has (Migration20261121000002CatalogSeed). */
const LINKED_PRODUCT = 'analytics';

export const createTenantRoute = defineRoute({
  method: 'post',
  path: '/v1/tenants',
  operationId: 'createTenant',
  access: 'tenants:write',
  acrossTenants: 'create tenants',
  summary: 'Create a tenant; with admin_email, also provision its IT_ADMIN in the identity provider',
  tags: ['tenants'],
  body: TenantCreate,
  responses: {
    201: {
      description: 'created',
      schema: TenantCreated,
      links: Object.fromEntries([
        ...['getTenant', 'updateTenant', 'activateTenant', 'cancelTenant', 'archiveTenant', 'resendInvite', 'retryProvisioning'].map((operationId) => [
          operationId,
          { operationId, parameters: { id: '$response.body#/tenant/id' } },
        ]),
        ...['listEntitlements', 'listApiKeys'].map((operationId) => [operationId, { operationId, parameters: { tenant_id: '$response.body#/tenant/id' } }]),
        ['getTenantBySlug', { operationId: 'getTenantBySlug', parameters: { slug: '$response.body#/tenant/slug' } }],
        // A product of the seeded catalog, so the entitlement and catalog operations reach a real tenant.
        ['putEntitlement', { operationId: 'putEntitlement', parameters: { id: '$response.body#/tenant/id', product: LINKED_PRODUCT } }],
        ...['requestProduct', 'startTrial'].map((operationId) => [
          operationId,
          { operationId, requestBody: { tenant_id: '$response.body#/tenant/id', product: LINKED_PRODUCT } },
        ]),
      ]),
    },
    400: { description: 'invalid input', schema: ErrorBody },
    409: { description: 'slug already taken', schema: ErrorBody },
  },
  handler: async ({ body }, { meta, deps }) => {
    const { tenant, inviteUrl } = await createTenant(deps, body, meta);
    return { status: 201, body: inviteUrl ? { tenant: toTenant(tenant), invite_url: inviteUrl } : { tenant: toTenant(tenant) } };
  },
});
