import type { EntityManager } from '@mikro-orm/postgresql';
import { TenantProductEntity } from '../entities/tenantProductEntity.ts';
import type { TenantRecord } from '../entities/tenantEntity.ts';
import { orgRolesFrom, tenantLookupFor } from '../claimsLookup.ts';
import { notFound } from '../errors.ts';
import type { CachedTenant, RegistryCache } from '../registryCache.ts';
import type { Claims, ClaimsRequest } from '../schemas/claims.ts';
import type { Sql } from '../sql.ts';
import { isEntitlementCurrent } from '../entitlements/listEntitlements.ts';
import { loadTenantSnapshot } from '../tenants/tenantSnapshot.ts';

/** The claim bundle of a tenant as of now; the same shape is pushed into users' attributes in the identity provider. */
export async function claimsOfTenant(em: EntityManager, tenant: TenantRecord, orgRoles: string[]): Promise<Claims> {
  const now = new Date();
  const entitlements = await em.find(TenantProductEntity, { tenantId: tenant.id }, { orderBy: { product: 'asc' } });
  return {
    tenant_id: tenant.id,
    tenant_slug: tenant.slug,
    org_roles: orgRoles,
    products: entitlements.filter((e) => isEntitlementCurrent(e, now)).map((e) => e.product),
    plan: tenant.plan,
    tenant_status: tenant.status,
  };
}

/** The same bundle from a tenant snapshot (entitlements sorted by product), with expiry judged at `now`. */
export function claimsOfSnapshot(tenant: CachedTenant, orgRoles: string[], now: number): Claims {
  const products: string[] = [];
  for (const e of tenant.entitlements) if (e.enabled && (e.expiresAt === null || e.expiresAt > now)) products.push(e.product);
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
 * (see domain/registryCache.ts for how soon a change is seen), else from one query, which then fills the cache.
 */
export async function resolveClaims(sql: () => Promise<Sql>, request: ClaimsRequest, cache?: RegistryCache): Promise<Claims> {
  const lookup = tenantLookupFor(request);
  const orgRoles = orgRolesFrom(request);
  let tenant = lookup.by === 'id' ? cache?.tenant(lookup.id) : cache?.tenantBySlug(lookup.slug);
  if (!tenant) {
    const generation = cache?.generation() ?? 0;
    tenant = await loadTenantSnapshot(await sql(), lookup);
    if (!tenant) throw notFound('tenant');
    cache?.putTenant(tenant, generation);
  }
  return claimsOfSnapshot(tenant, orgRoles, Date.now());
}
