import type { Membership, MembershipList } from '../schemas/membership.ts';
import { claimsOfSnapshot } from '../claims/resolveClaims.ts';
import type { MemberRepository } from '../members/memberRepository.ts';
import type { TenantRepository } from '../tenants/tenantRepository.ts';
import type { RegistryCache } from '../reads/registryCache.ts';
import type { CachedTenant } from '../reads/tenantCache.ts';
import { membershipGrantsOf } from '../claims/membershipGrants.ts';
import { EVERY_TENANT, reaches, type TenantReach } from '../access/tenantReach.ts';

/** What the identity provider knows of one membership (the provider port's shape, kept minimal here). */
export interface ProviderMembership {
  organizationId: string;
  tenantId?: string;
  alias: string;
  orgRoles: string[];
  attributes: Record<string, string[]>;
}

export interface MembershipStores {
  tenants: Pick<TenantRepository, 'snapshots'>;
  members: Pick<MemberRepository, 'ofUser'>;
}

/**
 * SPEC-EXTENSIONS §7: the registry's member records of the user first, by tenant slug (roles, permissions and status
 * from the record; status, plan and products from the tenant), then the organizations of registry tenants the
 * provider has the user in without a record (`none`: what a token for them carries), then the provider's
 * organizations of no registry tenant (`source: idp`, as the provider has them). `fromProvider` undefined: the
 * provider could not be asked, and the answer says it is partial. The registry's part is read as claims read it, from
 * the registry cache while it holds the user's grants and the tenants (forgotten at their changes).
 */
export async function membershipsOfUser(
  stores: MembershipStores,
  userId: string,
  fromProvider: ProviderMembership[] | undefined,
  reach: TenantReach = EVERY_TENANT,
  cache?: RegistryCache,
): Promise<MembershipList> {
  // A tenant-bound caller sees the memberships of its tenants only, not where else the user belongs.
  const records = (await membershipGrantsOf(stores.members, userId, cache)).filter((m) => reaches(reach, m.tenantId));
  const provided = (fromProvider ?? []).filter((m) => !reach.bound || (m.tenantId !== undefined && reach.tenantIds.has(m.tenantId)));
  const organizationOf = new Map(provided.flatMap((m) => (m.tenantId ? [[m.tenantId, m.organizationId] as const] : [])));
  const tenantIds = [...new Set([...records.map((m) => m.tenantId), ...organizationOf.keys()])];
  const byId = new Map((await snapshotsOf(stores.tenants, tenantIds, cache)).map((t) => [t.id, t]));
  const now = Date.now();
  const ofTenant = (tenantId: string) => {
    const tenant = byId.get(tenantId)!;
    const claims = claimsOfSnapshot(tenant, [], now);
    const organizationId = organizationOf.get(tenantId);
    return { tenant_id: tenant.id, tenant_slug: tenant.slug, ...(organizationId ? { organization_id: organizationId } : {}), status: claims.tenant_status, plan: claims.plan, products: claims.products ?? [] };
  };

  // Members reference their tenant and tenants are never deleted: every record's tenant has a snapshot.
  const items: Membership[] = records
    .map((member): Membership => ({ ...ofTenant(member.tenantId), org_roles: member.roles, permissions: member.permissions, membership_status: member.status, source: 'registry' }))
    .sort((a, b) => (a.tenant_slug! < b.tenant_slug! ? -1 : 1));
  const recorded = new Set(records.map((m) => m.tenantId));
  const foreign: Membership[] = [];
  for (const m of provided) {
    if (m.tenantId && recorded.has(m.tenantId)) continue;
    if (m.tenantId && byId.has(m.tenantId)) {
      items.push({ ...ofTenant(m.tenantId), org_roles: [], permissions: [], membership_status: 'none', source: 'registry' });
      continue;
    }
    const attr = (name: string) => m.attributes[name]?.[0];
    const item: Membership = { organization_id: m.organizationId, tenant_slug: m.alias, org_roles: m.orgRoles, source: 'idp' };
    if (m.tenantId) item.tenant_id = m.tenantId;
    if (attr('tenant_status')) item.status = attr('tenant_status');
    if (attr('plan')) item.plan = attr('plan');
    if (m.attributes.products) item.products = m.attributes.products;
    foreign.push(item);
  }
  items.push(...foreign);
  return fromProvider ? { items } : { items, partial: true };
}

/** The tenants' snapshots as claims read them: those the registry cache holds from it, the others in one read that fills it. */
async function snapshotsOf(tenants: MembershipStores['tenants'], ids: string[], cache: RegistryCache | undefined): Promise<CachedTenant[]> {
  const held: CachedTenant[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const tenant = cache?.tenants.get(id);
    if (tenant) held.push(tenant);
    else missing.push(id);
  }
  if (missing.length === 0) return held;
  const generation = cache?.generation() ?? 0;
  const read = await tenants.snapshots(missing);
  for (const tenant of read) cache?.tenants.put(tenant, generation);
  return [...held, ...read];
}
