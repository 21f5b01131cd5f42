import { conflict, invalidInput, notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { CatalogRequest } from '../schemas/catalog.ts';
import { TRIAL_DAYS, addDays, tenantMayStartTrial } from '../tenantLifecycle.ts';
import type { TenantProductRecord } from '../entitlements/tenantProductRecord.ts';
import type { LockedTenant, TenantChange } from '../tenants/tenantRepository.ts';
import type { RegistryContext } from '../registryContext.ts';
import { tenantChangeEffects } from '../changeEffects/tenantChangeEffects.ts';
import type { CatalogProductRecord } from './catalogProductRecord.ts';

/**
 * The trial rule: one trial per tenant and product (a product the tenant has or had is a conflict), none for a
 * frozen or archived tenant; the entitlement is enabled, marked as a trial and expires after TRIAL_DAYS.
 */
export function planTrial(tenant: LockedTenant, product: CatalogProductRecord, now: Date): TenantChange<TenantProductRecord> {
  if (!tenantMayStartTrial(tenant.status)) throw conflict(`tenant is ${tenant.status}; a trial cannot start`);
  if (tenant.entitlements.some((e) => e.product === product.key)) throw conflict(`tenant already has or had "${product.key}"`);
  const entitlement: TenantProductRecord = {
    tenantId: tenant.id,
    product: product.key,
    enabled: true,
    config: { trial: true },
    expiresAt: addDays(now, TRIAL_DAYS),
    expiryAnnouncedFor: null,
    createdAt: now,
    updatedAt: now,
  };
  return {
    putEntitlements: [entitlement],
    events: [{
      action: 'entitlement.trial_started',
      tenant_id: tenant.id,
      product: product.key,
      target_id: tenant.id,
      target_type: 'tenant',
      target_name: tenant.slug,
      metadata: { product: product.key, expires_at: entitlement.expiresAt!.toISOString() },
    }],
    pushClaims: true,
    result: entitlement,
  };
}

export async function startTrial({ stores, effects }: RegistryContext, request: CatalogRequest, meta: RequestMeta): Promise<TenantProductRecord> {
  const product = await stores.catalog.find(request.product);
  if (!product) throw notFound(`product "${request.product}"`);
  if (!product.supportsTrial) throw invalidInput(`product "${product.key}" does not offer a trial`);
  const started = await stores.tenants.change(request.tenant_id, meta, (tenant, now) => planTrial(tenant, product, now));
  if (!started) throw notFound('tenant');
  effects.follow(tenantChangeEffects(request.tenant_id, started));
  return started.result;
}
