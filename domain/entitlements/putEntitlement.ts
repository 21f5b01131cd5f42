import { findCatalogProduct } from '../catalog/findCatalogProduct.ts';
import { notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { EntitlementPut } from '../schemas/entitlement.ts';
import type { LockedTenant, TenantChange } from '../tenants/tenantRepository.ts';
import type { RegistryContext } from '../registryContext.ts';
import { tenantChangeEffects } from '../changeEffects/tenantChangeEffects.ts';
import { isEntitlementCurrent } from './entitlementRules.ts';
import type { TenantProductRecord } from './tenantProductRecord.ts';

/** The products that count for claims now, in order: a push is due when this changes. */
export const currentProducts = (entitlements: TenantProductRecord[], now: Date): string[] =>
  entitlements
    .filter((e) => isEntitlementCurrent({ enabled: e.enabled, expiresAt: e.expiresAt?.getTime() ?? null }, now.getTime()))
    .map((e) => e.product)
    .sort();

const shown = (e: TenantProductRecord | undefined) => e && { enabled: e.enabled, config: e.config, expires_at: e.expiresAt?.toISOString() ?? null };

/**
 * Grant (no entitlement yet) or change the tenant's entitlement to a product: `enabled` defaults to true, `config` to
 * {} (or what it was), `expires_at` to none (or what it was). The event carries the old and new values; an
 * unchanged entitlement writes nothing. A change of the current products queues a claims push.
 */
export function planEntitlementPut(tenant: LockedTenant, product: string, body: EntitlementPut, now: Date): TenantChange<{ entitlement: TenantProductRecord; created: boolean }> {
  const existing = tenant.entitlements.find((e) => e.product === product);
  const entitlement: TenantProductRecord = {
    tenantId: tenant.id,
    product,
    enabled: body.enabled ?? true,
    config: body.config ?? existing?.config ?? {},
    expiresAt: body.expires_at === undefined ? (existing?.expiresAt ?? null) : body.expires_at === null ? null : new Date(body.expires_at),
    expiryAnnouncedFor: existing?.expiryAnnouncedFor ?? null,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  if (existing && JSON.stringify(shown(existing)) === JSON.stringify(shown(entitlement))) {
    return { pushClaims: false, result: { entitlement: existing, created: false } };
  }
  const after = [...tenant.entitlements.filter((e) => e.product !== product), entitlement];
  return {
    putEntitlements: [entitlement],
    events: [{
      action: existing ? 'entitlement.updated' : 'entitlement.granted',
      tenant_id: tenant.id,
      product,
      target_id: tenant.id,
      target_type: 'tenant',
      target_name: tenant.slug,
      metadata: { product, old: shown(existing) ?? null, new: shown(entitlement) },
    }],
    // A new expiry moves the actor's timers: the hand-off that carries a push also refreshes its timeline.
    pushClaims:
      currentProducts(tenant.entitlements, now).join() !== currentProducts(after, now).join() ||
      existing?.expiresAt?.getTime() !== entitlement.expiresAt?.getTime(),
    result: { entitlement, created: !existing },
  };
}

export async function putEntitlement(
  { stores, effects }: RegistryContext,
  tenantId: string,
  product: string,
  body: EntitlementPut,
  meta: RequestMeta,
): Promise<{ entitlement: TenantProductRecord; created: boolean }> {
  await findCatalogProduct(stores.catalog, product);
  const changed = await stores.tenants.change(tenantId, meta, (tenant, now) => planEntitlementPut(tenant, product, body, now));
  if (!changed) throw notFound('tenant');
  effects.follow(tenantChangeEffects(tenantId, changed));
  return changed.result;
}
