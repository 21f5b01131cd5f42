import { conflict } from '../errors.ts';
import type { MemberStatus } from './memberRecord.ts';
import type { MemberChangeFacts } from './memberRepository.ts';
import { TENANT_ADMIN_ROLE } from './tenantAdminRole.ts';

/** Whether a member counts as one of its tenant's active administrators. */
export const isActiveAdmin = (member: { status: MemberStatus; roles: readonly string[] }): boolean =>
  member.status === 'active' && member.roles.includes(TENANT_ADMIN_ROLE);

/**
 * Whether the change takes the tenant's last active IT_ADMIN away (demotes, deactivates or removes it) while the
 * tenant keeps members. Only an active administrator can be lost: a tenant whose IT_ADMIN is still `pending` has none
 * to lose. `after` undefined: the member goes.
 */
export function losesLastActiveAdmin(facts: MemberChangeFacts, after: { status: MemberStatus; roles: readonly string[] } | undefined): boolean {
  const before = facts.member;
  if (!before || !isActiveAdmin(before) || (after && isActiveAdmin(after))) return false;
  const membersLeft = after ? facts.members : facts.members - 1;
  return facts.activeAdmins <= 1 && membersLeft > 0;
}

/**
 * The last-admin rule (SPEC-EXTENSIONS §7): a change that takes the tenant's last active IT_ADMIN away (demotes,
 * deactivates or removes it) while the tenant keeps members is refused (409): see losesLastActiveAdmin.
 */
export function requireActiveAdminKept(facts: MemberChangeFacts, after: { status: MemberStatus; roles: readonly string[] } | undefined): void {
  if (!losesLastActiveAdmin(facts, after)) return;
  const what = !after ? 'be removed' : after.status !== 'active' ? 'be deactivated' : `lose the role ${TENANT_ADMIN_ROLE}`;
  throw conflict(`the tenant's last active ${TENANT_ADMIN_ROLE} cannot ${what} while the tenant has members: make another member an active ${TENANT_ADMIN_ROLE} first`);
}
