import { notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { LockedTenant, TenantChange } from '../tenants/tenantRepository.ts';
import type { RegistryContext } from '../registryContext.ts';
import { tenantChangeEffects } from '../changeEffects/tenantChangeEffects.ts';
import { currentProducts } from './putEntitlement.ts';

/** Removes the tenant's entitlement to a product (not_found when it has none); a current product's removal is pushed. */
export function planEntitlementRevoke(tenant: LockedTenant, product: string, now: Date): TenantChange<void> {
  const existing = tenant.entitlements.find((e) => e.product === product);
  if (!existing) throw notFound(`entitlement to "${product}"`);
  const after = tenant.entitlements.filter((e) => e.product !== product);
  return {
    removeEntitlement: product,
    events: [{
      action: 'entitlement.revoked',
      tenant_id: tenant.id,
      product,
      target_id: tenant.id,
      target_type: 'tenant',
      target_name: tenant.slug,
      metadata: { product, old: { enabled: existing.enabled, config: existing.config, expires_at: existing.expiresAt?.toISOString() ?? null } },
    }],
    pushClaims: currentProducts(tenant.entitlements, now).join() !== currentProducts(after, now).join(),
    result: undefined,
  };
}

export async function revokeEntitlement({ stores, effects }: RegistryContext, tenantId: string, product: string, meta: RequestMeta): Promise<void> {
  const changed = await stores.tenants.change(tenantId, meta, (tenant, now) => planEntitlementRevoke(tenant, product, now));
  if (!changed) throw notFound('tenant');
  effects.follow(tenantChangeEffects(tenantId, changed));
}
