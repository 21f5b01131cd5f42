import { memberClaimsOf } from '../../domain/claims/memberClaims.ts';
import { grantOf } from '../../domain/claims/membershipGrants.ts';
import { claimsOfSnapshot } from '../../domain/claims/resolveClaims.ts';
import type { MemberRecord } from '../../domain/members/memberRecord.ts';
import type { CachedTenant } from '../../domain/reads/tenantCache.ts';
import type { PushedMembership } from '../../identityProvider/identityProvider.ts';

/**
 * One user's claims in one tenant as pushed into its attributes, as of `asOf`: the tenant's claims with what the
 * member's record grants, by the rule the registry answers with (memberClaimsOf: only an active member has roles and
 * permissions), so the mapper's fallback never grants more than the registry would. A user of the tenant's
 * organization that is no member (`member` undefined) has membership status `none`.
 */
export function pushedMembershipOf(tenant: CachedTenant, member: MemberRecord | undefined, asOf: number): PushedMembership {
  const granted = memberClaimsOf(member && grantOf(member));
  const claims = claimsOfSnapshot(tenant, [], asOf);
  return {
    tenant_id: claims.tenant_id,
    tenant_slug: claims.tenant_slug,
    plan: claims.plan,
    tenant_status: claims.tenant_status,
    products: claims.products ?? [],
    org_roles: granted.org_roles,
    permissions: granted.permissions,
    membership_status: granted.membership_status,
  };
}
