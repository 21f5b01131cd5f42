/**
 * The shared built-in role that administers a tenant (SPEC-EXTENSIONS §7): provisioning's invitee holds it, and no
 * change may take the last active holder from a tenant that keeps members (domain/members/lastActiveAdmin.ts).
 */
export const TENANT_ADMIN_ROLE = 'IT_ADMIN';
