import { orgRolesFrom, tenantLookupFor } from '../claimsLookup.ts';
import { isEntitlementCurrent } from '../entitlements/entitlementRules.ts';
import { notFound } from '../errors.ts';
import type { CachedTenant, RegistryCache } from '../registryCache.ts';
import type { Claims, ClaimsRequest } from '../schemas/claims.ts';
import { EVERY_TENANT, requireReach, type TenantReach } from '../access/tenantReach.ts';
import type { TenantRepository } from '../tenants/tenantRepository.ts';

/**
 * The claim bundle of a tenant from its snapshot, with expiry judged at `now`; the same shape is pushed into users'
 * attributes in the identity provider.
 */
export function claimsOfSnapshot(tenant: CachedTenant, orgRoles: string[], now: number): Claims {
  const products: string[] = [];
  for (const e of tenant.entitlements) if (isEntitlementCurrent(e, now)) products.push(e.product);
  return {
    tenant_id: tenant.id,
    tenant_slug: tenant.slug,
    org_roles: orgRoles,
    products,
    plan: tenant.plan,
    tenant_status: tenant.status as Claims['tenant_status'],
  };
}

/**
 * The hot path of the identity provider's token mapper: answered from the registry cache when it holds the tenant
 * (see domain/registryCache.ts for how soon a change is seen), else from one read, which then fills the cache.
 */
export async function resolveClaims(
  tenants: Pick<TenantRepository, 'snapshot'>,
  request: ClaimsRequest,
  cache?: RegistryCache,
  reach: TenantReach = EVERY_TENANT,
): Promise<Claims> {
  const lookup = tenantLookupFor(request);
  const orgRoles = orgRolesFrom(request);
  let tenant = lookup.by === 'id' ? cache?.tenant(lookup.id) : cache?.tenantBySlug(lookup.slug);
  if (!tenant) {
    const generation = cache?.generation() ?? 0;
    tenant = await tenants.snapshot(lookup).catch((error: unknown) => {
      // The store cannot be read: a recent enough copy answers (RegistryCache.staleIfErrorMs), else the failure stands.
      const stale = cache?.staleTenant(lookup);
      if (!stale) throw error;
      return stale;
    });
    if (!tenant) throw notFound('tenant');
    cache?.putTenant(tenant, generation);
  }
  requireReach(reach, tenant.id);
  return claimsOfSnapshot(tenant, orgRoles, Date.now());
}
