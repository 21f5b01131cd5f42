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
 * What the member's record in the token's tenant says: only an active member gets its roles and permissions. A pending
 * one gets none until its invitee accepts (an account that already exists can sign in for the tenant's organization
 * before it has; SPEC-EXTENSIONS §13), an inactive one none, and a user without a record (`grant` undefined) none and
 * `none`. The answer and the pushed attributes (pushedMembershipOf) both follow this.
 */
export function memberClaimsOf(grant: MembershipGrant | undefined): MemberClaims {
  if (!grant) return { org_roles: [], permissions: [], membership_status: 'none' };
  if (grant.status !== 'active') return { org_roles: [], permissions: [], membership_status: grant.status };
  return { org_roles: grant.roles, permissions: grant.permissions, membership_status: 'active' };
}
