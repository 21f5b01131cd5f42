import { attributeTenantOf, namedTenantOf, orgRolesFrom, tenantLookupFor, type TenantLookup } from './claimsLookup.ts';
import { isEntitlementCurrent } from '../entitlements/entitlementRules.ts';
import { AppError, notFound } from '../errors.ts';
import type { MemberRepository } from '../members/memberRepository.ts';
import type { RegistryCache } from '../reads/registryCache.ts';
import type { CachedTenant } from '../reads/tenantCache.ts';
import type { Claims, ClaimsRequest } from '../schemas/claims.ts';
import { EVERY_TENANT, requireReach, type TenantReach } from '../access/tenantReach.ts';
import type { TenantRepository } from '../tenants/tenantRepository.ts';
import { memberClaimsOf, tenantOfMemberships } from './memberClaims.ts';
import { membershipGrantsOf } from './membershipGrants.ts';
import { readOrStale } from '../reads/readOrStale.ts';
import type { CatalogRepository } from '../catalog/catalogRepository.ts';
import { productClientsOf } from '../signIn/productClientsOf.ts';
import { signInAnswerOf } from '../signIn/signInAnswer.ts';
import type { SignInEventSink } from '../signIn/signInEvents.ts';

/**
 * What the claims path reads: tenants' snapshots and, for a request with a user id, the user's memberships; for one
 * with a client id, the products' clients.
 */
export interface ClaimsStores {
  tenants: Pick<TenantRepository, 'snapshot'>;
  members: Pick<MemberRepository, 'ofUser'>;
  catalog: Pick<CatalogRepository, 'clients'>;
}

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
 * (and the user's memberships, and the products' clients), else from one read of each, made together, which then
 * fills the cache. With a client id the answer carries the sign-in's decision, whose events go to `signIns`.
 */
export async function resolveClaims(
  stores: ClaimsStores,
  request: ClaimsRequest,
  cache?: RegistryCache,
  reach: TenantReach = EVERY_TENANT,
  signIns?: SignInEventSink,
): Promise<Claims> {
  if (request.user_id !== undefined) return claimsOfMember(stores, request.user_id, request, cache, reach, signIns);
  const tenant = await tenantSnapshotOf(stores.tenants, tenantLookupFor(request), cache);
  requireReach(reach, tenant.id);
  return claimsOfSnapshot(tenant, orgRolesFrom(request), Date.now());
}

/**
 * SPEC-EXTENSIONS §7: the roles and permissions are the member's in the token's tenant, which is the one the body
 * names, else the user's single active membership, else the one its attributes name, if it is a member there: a user
 * is never given a tenant's claims through its attributes alone. user_attrs.org_roles do not count.
 */
async function claimsOfMember(
  stores: ClaimsStores,
  userId: string,
  request: ClaimsRequest,
  cache: RegistryCache | undefined,
  reach: TenantReach,
  signIns: SignInEventSink | undefined,
): Promise<Claims> {
  const named = namedTenantOf(request);
  const [grants, namedTenant, clients] = await Promise.all([
    membershipGrantsOf(stores.members, userId, cache),
    named ? tenantSnapshotOf(stores.tenants, named, cache) : undefined,
    request.client_id !== undefined ? productClientsOf(stores.catalog, cache) : undefined,
  ]);
  let tenant = namedTenant;
  if (!tenant) {
    const lookup = tenantOfMemberships(grants) ?? attributeTenantOf(request);
    if (!lookup) throw new AppError('not_found', 'tenant not found: the user has no single active membership and its attributes name no tenant');
    tenant = await tenantSnapshotOf(stores.tenants, lookup, cache);
  }
  requireReach(reach, tenant.id);
  const tenantId = tenant.id;
  const grant = grants.find((g) => g.tenantId === tenantId);
  if (!named && !grant) throw new AppError('not_found', 'tenant not found: the user is not a member of the tenant its attributes name');
  const member = memberClaimsOf(grant);
  const now = Date.now();
  const claims: Claims = { ...claimsOfSnapshot(tenant, member.org_roles, now), permissions: member.permissions, membership_status: member.membership_status };
  const clientId = request.client_id;
  if (clientId === undefined || !clients) return claims;
  return { ...claims, ...signInAnswerOf(tenant, grant, { ...request, client_id: clientId, user_id: userId }, claims.products ?? [], clients, now, signIns) };
}

async function tenantSnapshotOf(tenants: ClaimsStores['tenants'], lookup: TenantLookup, cache: RegistryCache | undefined): Promise<CachedTenant> {
  const cached = lookup.by === 'id' ? cache?.tenants.get(lookup.id) : cache?.tenants.bySlug(lookup.slug);
  if (cached) return cached;
  const generation = cache?.generation() ?? 0;
  const read = await readOrStale(() => tenants.snapshot(lookup), () => cache?.tenants.stale(lookup));
  const tenant = read.value;
  if (!tenant) throw notFound('tenant');
  if (!read.stale) cache?.tenants.put(tenant, generation);
  return tenant;
}
