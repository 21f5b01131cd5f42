import { DEFAULT_INVITED_ROLE } from '../invitations/invitationRecord.ts';
import { conflict, invalidInput } from '../errors.ts';
import type { RoleRecord } from './roleRecord.ts';

/** The permission that makes a tenant's administrator: it changes the tenant's members and their roles. */
export const MEMBER_MANAGING_PERMISSION = 'members:manage';

/**
 * A tenant's default role is what every arrival gets unasked (an invitation naming no roles, a first SSO sign-in, a
 * SCIM user): never one that administers the tenant (SPEC-EXTENSIONS §13), 400.
 */
export function requireDefaultRoleFit(role: Pick<RoleRecord, 'slug' | 'permissions'>): void {
  if (role.permissions.includes(MEMBER_MANAGING_PERMISSION)) {
    throw invalidInput(`settings.default_role: ${role.slug} holds ${MEMBER_MANAGING_PERMISSION}; a default role may not administer the tenant`);
  }
}

/**
 * The other way in: a role that is a default (some tenant's default_role, or MEMBER, every tenant's default until it
 * sets one, and what an SSO arrival falls back to) may not gain members:manage, 409: that would make every arrival an
 * administrator without the tenants' settings changing.
 */
export function requireDefaultStaysUnprivileged(role: Pick<RoleRecord, 'slug' | 'tenantId' | 'permissions'> & { defaultOfTenants: number }, permissionsAfter: readonly string[]): void {
  const gains = !role.permissions.includes(MEMBER_MANAGING_PERMISSION) && permissionsAfter.includes(MEMBER_MANAGING_PERMISSION);
  if (!gains) return;
  const everyTenantsDefault = role.tenantId === null && role.slug === DEFAULT_INVITED_ROLE;
  if (everyTenantsDefault || role.defaultOfTenants > 0) {
    throw conflict(
      everyTenantsDefault
        ? `${role.slug} is every tenant's default role and may not hold ${MEMBER_MANAGING_PERMISSION}`
        : `${role.slug} is the default role of ${role.defaultOfTenants} tenant(s); change their settings.default_role before granting it ${MEMBER_MANAGING_PERMISSION}`,
    );
  }
}
