import { requireReach, EVERY_TENANT, type TenantReach } from '../access/tenantReach.ts';
import type { TenantLookup } from '../claims/claimsLookup.ts';
import type { RegistryCache } from '../reads/registryCache.ts';
import { findTenant } from './findTenant.ts';
import type { TenantRepository } from './tenantRepository.ts';
import { toTenant } from './tenantResponse.ts';

/**
 * GET of one tenant (by id or slug) as the Tenant body's JSON text, from the registry cache when it holds the tenant:
 * any change of a tenant row notifies `t:<id>` (migration 5), which forgets it on every replica, and the change's own
 * replica forgets it in the change's effects. A tenant-bound caller reaches only its tenants (not_found otherwise).
 */
export async function tenantDocument(tenants: TenantRepository, cache: RegistryCache, lookup: TenantLookup, reach: TenantReach = EVERY_TENANT): Promise<string> {
  const held = cache.documents.tenant(lookup);
  if (held) {
    requireReach(reach, held.id);
    return held.json;
  }
  const generation = cache.generation();
  const tenant = await findTenant(tenants, lookup, reach);
  const json = JSON.stringify(toTenant(tenant));
  cache.documents.putTenant({ id: tenant.id, slug: tenant.slug, json }, generation);
  return json;
}
