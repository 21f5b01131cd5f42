import type { RegistryCache } from '../reads/registryCache.ts';
import type { TenantRepository } from '../tenants/tenantRepository.ts';
import { listEntitlements } from './listEntitlements.ts';
import { toTenantProduct } from './tenantProductResponse.ts';

/**
 * GET /v1/entitlements of a tenant as the TenantProductList body's JSON text, from the registry cache when it holds
 * it: every change of the tenant's entitlements notifies `t:<tenant id>` (migration 5), which forgets it on every
 * replica, and the change's own replica forgets it in the change's effects.
 */
export async function entitlementsDocument(tenants: TenantRepository, cache: RegistryCache, tenantId: string): Promise<string> {
  const held = cache.documents.entitlements(tenantId);
  if (held !== undefined) return held;
  const generation = cache.generation();
  const json = JSON.stringify({ items: (await listEntitlements(tenants, tenantId)).map(toTenantProduct) });
  cache.documents.putEntitlements(tenantId, json, generation);
  return json;
}
