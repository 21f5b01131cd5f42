import type { Membership } from '../schemas/membership.ts';
import { claimsOfSnapshot } from '../claims/resolveClaims.ts';
import type { TenantRepository } from '../tenants/tenantRepository.ts';
import { EVERY_TENANT, type TenantReach } from '../access/tenantReach.ts';

/** What the identity provider knows of one membership (the provider port's shape, kept minimal here). */
export interface ProviderMembership {
  organizationId: string;
  tenantId?: string;
  alias: string;
  orgRoles: string[];
  attributes: Record<string, string[]>;
}

/**
 * SPEC rule 9: links and org_roles come from the identity provider; for tenants the registry knows, status, plan
 * and products come from the registry and override the provider's values.
 */
export async function membershipsOfUser(
  tenants: Pick<TenantRepository, 'snapshots'>,
  fromProvider: ProviderMembership[],
  reach: TenantReach = EVERY_TENANT,
): Promise<Membership[]> {
  // A tenant-bound caller sees the memberships of its tenants only, not where else the user belongs.
  if (reach.bound) fromProvider = fromProvider.filter((m) => m.tenantId !== undefined && reach.tenantIds.has(m.tenantId));
  const tenantIds = [...new Set(fromProvider.map((m) => m.tenantId).filter((id): id is string => !!id))];
  const byId = new Map((await tenants.snapshots(tenantIds)).map((t) => [t.id, t]));
  const now = Date.now();
  const items: Membership[] = [];
  for (const m of fromProvider) {
    const tenant = m.tenantId ? byId.get(m.tenantId) : undefined;
    if (tenant) {
      const claims = claimsOfSnapshot(tenant, m.orgRoles, now);
      items.push({
        tenant_id: tenant.id,
        tenant_slug: tenant.slug,
        organization_id: m.organizationId,
        org_roles: m.orgRoles,
        status: claims.tenant_status,
        plan: claims.plan,
        products: claims.products ?? [],
        source: 'registry',
      });
      continue;
    }
    const attr = (name: string) => m.attributes[name]?.[0];
    const item: Membership = { organization_id: m.organizationId, tenant_slug: m.alias, org_roles: m.orgRoles, source: 'idp' };
    if (m.tenantId) item.tenant_id = m.tenantId;
    if (attr('tenant_status')) item.status = attr('tenant_status');
    if (attr('plan')) item.plan = attr('plan');
    if (m.attributes.products) item.products = m.attributes.products;
    items.push(item);
  }
  return items;
}
