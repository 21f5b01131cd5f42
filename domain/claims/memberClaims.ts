import type { MembershipGrant } from '../members/memberRecord.ts';
import type { Claims } from '../schemas/claims.ts';
import type { TenantLookup } from './claimsLookup.ts';

export type MemberClaims = Required<Pick<Claims, 'org_roles' | 'permissions' | 'membership_status'>>;

/**
 * The tenant of a token the body names no organization for (SPEC-EXTENSIONS §7): the user's single active membership.
 * None or several: undefined, and the user's attributes decide, if the user is a member there.
 */
export function tenantOfMemberships(grants: readonly MembershipGrant[]): TenantLookup | undefined {
  let only: MembershipGrant | undefined;
  for (const grant of grants) {
    if (grant.status !== 'active') continue;
    if (only) return undefined;
    only = grant;
  }
  return only ? { by: 'id', id: only.tenantId } : undefined;
}

/**
 * What the member's record in the token's tenant says: an active or pending member its roles and permissions (a
 * pending member can only sign in by accepting its invite, which makes it active), an inactive one nothing, a user
 * without a record (`grant` undefined) nothing and `none`.
 */
export function memberClaimsOf(grant: MembershipGrant | undefined): MemberClaims {
  if (!grant) return { org_roles: [], permissions: [], membership_status: 'none' };
  if (grant.status === 'inactive') return { org_roles: [], permissions: [], membership_status: 'inactive' };
  return { org_roles: grant.roles, permissions: grant.permissions, membership_status: grant.status };
}
