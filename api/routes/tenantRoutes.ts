import { ErrorBody, IdParams } from '../../domain/schemas/common.ts';
import { SlugParams, Tenant, TenantActivate, TenantCancel, TenantCreate, TenantCreated } from '../../domain/schemas/tenant.ts';
import { createTenant } from '../../domain/tenants/createTenant.ts';
import { changeTenantStatus } from '../../domain/tenants/changeTenantStatus.ts';
import { findTenant } from '../../domain/tenants/findTenant.ts';
import { toTenant } from '../../domain/tenants/tenantResponse.ts';
import { defineRoute } from '../routeDefinition.ts';
import { handOffInBackground, provisionWithinWait } from '../tenantActors/handOff.ts';

const tags = ['tenants'];
const error = (description: string) => ({ description, schema: ErrorBody });

export const tenantRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/tenants',
    operationId: 'createTenant',
    summary: 'Create a tenant; with admin_email, also provision its IT_ADMIN in the identity provider',
    tags,
    body: TenantCreate,
    responses: {
      201: { description: 'created', schema: TenantCreated },
      400: error('invalid input'),
      409: error('slug already taken'),
    },
    handler: async ({ body }, { sql, meta, deps }) => {
      const { tenant, provisioningCommandId } = await createTenant(await sql(), body, meta);
      const inviteUrl = provisioningCommandId ? await provisionWithinWait(deps, tenant.id, provisioningCommandId) : undefined;
      return { status: 201, body: inviteUrl ? { tenant: toTenant(tenant), invite_url: inviteUrl } : { tenant: toTenant(tenant) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/tenants/by-slug/{slug}',
    operationId: 'getTenantBySlug',
    summary: 'Get a tenant by slug',
    tags,
    params: SlugParams,
    responses: { 200: { description: 'the tenant', schema: Tenant }, 400: error('invalid slug'), 404: error('no such tenant') },
    handler: async ({ params }, { em }) => ({ status: 200, body: toTenant(await findTenant(em, { by: 'slug', slug: params.slug })) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/tenants/{id}',
    operationId: 'getTenant',
    summary: 'Get a tenant by id',
    tags,
    params: IdParams,
    responses: { 200: { description: 'the tenant', schema: Tenant }, 400: error('invalid id'), 404: error('no such tenant') },
    handler: async ({ params }, { em }) => ({ status: 200, body: toTenant(await findTenant(em, { by: 'id', id: params.id })) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tenants/{id}/activate',
    operationId: 'activateTenant',
    summary: 'Move a tenant to active from any state, applying plan and contract fields',
    tags,
    params: IdParams,
    body: TenantActivate,
    bodyRequired: false,
    responses: { 200: { description: 'the updated tenant', schema: Tenant }, 400: error('invalid input'), 404: error('no such tenant') },
    handler: async ({ params, body }, { em, meta, deps }) => {
      const { tenant, claimsPushCommandId } = await changeTenantStatus(em, params.id, { kind: 'activate', body }, meta);
      deps.cache?.invalidateTenant(tenant.id);
      handOffInBackground(deps, tenant.id, 'pushClaims', claimsPushCommandId);
      return { status: 200, body: toTenant(tenant) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tenants/{id}/cancel',
    operationId: 'cancelTenant',
    summary: 'Freeze a tenant at once; reason and at_period_end are recorded in the audit event',
    tags,
    params: IdParams,
    body: TenantCancel,
    bodyRequired: false,
    responses: { 200: { description: 'the updated tenant', schema: Tenant }, 400: error('invalid input'), 404: error('no such tenant') },
    handler: async ({ params, body }, { em, meta, deps }) => {
      const { tenant, claimsPushCommandId } = await changeTenantStatus(em, params.id, { kind: 'cancel', body }, meta);
      // Committed: this replica's verify and claims see the new status at once, other replicas through NOTIFY.
      deps.cache?.invalidateTenant(tenant.id);
      handOffInBackground(deps, tenant.id, 'pushClaims', claimsPushCommandId);
      return { status: 200, body: toTenant(tenant) };
    },
  }),
];

