/** What a member's tokens say of its membership (SPEC-EXTENSIONS §7); `none` is answered for a user that is not one. */
export const MEMBER_STATUSES = ['active', 'inactive', 'pending'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export type MembershipStatus = MemberStatus | 'none';

/** How a member came to be: provisioning's IT_ADMIN, an invitation, the API, directory sync or single sign-on. */
export const MEMBER_SOURCES = ['provisioning', 'invitation', 'registry', 'directory', 'sso'] as const;
export type MemberSource = (typeof MEMBER_SOURCES)[number];

/** One identity-provider user in one tenant, with its roles there (SPEC-EXTENSIONS §7). */
export interface MemberRecord {
  tenantId: string;
  /** The identity provider's user id. */
  userId: string;
  email: string;
  name: string;
  /** Slugs of its roles, sorted. */
  roles: string[];
  /** The union of its roles' permissions, sorted. */
  permissions: string[];
  status: MemberStatus;
  source: MemberSource;
  /**
   * May sign in without the tenant's required SSO (SPEC-EXTENSIONS §15), set by members:write only. Always read;
   * absent in a record a change made from scratch, which then keeps what is stored (false for a new member).
   */
  breakGlass?: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What the claims path needs of a user's membership in one tenant (cached per user, domain/reads/registryCache.ts). */
export interface MembershipGrant {
  tenantId: string;
  status: MemberStatus;
  roles: string[];
  permissions: string[];
  breakGlass: boolean;
}
