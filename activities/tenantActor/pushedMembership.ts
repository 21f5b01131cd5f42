import { claimsOfSnapshot } from '../../domain/claims/resolveClaims.ts';
import type { MemberRecord } from '../../domain/members/memberRecord.ts';
import type { CachedTenant } from '../../domain/reads/tenantCache.ts';
import type { PushedMembership } from '../../identityProvider/identityProvider.ts';

/**
 * One user's claims in one tenant as pushed into its attributes, as of `asOf`: the tenant's claims with the member's
 * roles and permissions. An inactive member carries none (SPEC-EXTENSIONS §7), nor does a user of the tenant's
 * organization that is no member (`member` undefined: membership status `none`).
 */
export function pushedMembershipOf(tenant: CachedTenant, member: MemberRecord | undefined, asOf: number): PushedMembership {
  const granted = member?.status === 'active' || member?.status === 'pending';
  const claims = claimsOfSnapshot(tenant, [], asOf);
  return {
    tenant_id: claims.tenant_id,
    tenant_slug: claims.tenant_slug,
    plan: claims.plan,
    tenant_status: claims.tenant_status,
    products: claims.products ?? [],
    org_roles: granted ? member.roles : [],
    permissions: granted ? member.permissions : [],
    membership_status: member?.status ?? 'none',
  };
}
