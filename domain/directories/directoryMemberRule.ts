import type { MemberChange, MemberChangeFacts } from '../members/memberRepository.ts';
import { memberAuditEvent } from '../members/memberAuditEvent.ts';
import type { MemberRecord } from '../members/memberRecord.ts';
import { isActiveAdmin } from '../members/lastActiveAdmin.ts';
import { TENANT_ADMIN_ROLE } from '../members/tenantAdminRole.ts';

/** What a directory's SCIM user asks of the tenant's member of its account. */
export interface DirectoryMemberRequest {
  tenantId: string;
  directoryId: string;
  userId: string;
  email: string;
  name: string;
  /** The SCIM user is active (false: `active: false`). */
  active: boolean;
  /** The SCIM user was deleted. */
  deleted: boolean;
  /** The tenant's default role and the roles its groups map to, in any order, possibly unknown to the tenant. */
  askedRoles: readonly string[];
}

/** What the member became: its status, and whether the change left the tenant with members but no active IT_ADMIN. */
export interface DirectoryMemberOutcome {
  member: 'active' | 'inactive' | 'removed' | 'none';
  /** The tenant now has members and none is an active IT_ADMIN (the leaver was the last): `tenant.no_active_admin`. */
  noActiveAdmin: boolean;
}

/**
 * The member a directory's SCIM user makes (SPEC-EXTENSIONS §10, §13). A directory changes only the members it made
 * (source `directory`): a member from provisioning, an invitation, the API or SSO is never deactivated, removed or
 * re-roled by it. Its own: active with the tenant's default role plus its groups' roles, inactive for `active: false`,
 * removed when deleted. The directory is authoritative about its own people, so it may take away the last active
 * IT_ADMIN it made; the outcome then says the tenant has none left.
 */
export function planDirectoryMember(request: DirectoryMemberRequest, facts: MemberChangeFacts, now: Date): MemberChange<DirectoryMemberOutcome> {
  const before = facts.member;
  const meta = { directory_id: request.directoryId };
  const lostLastAdmin = (after: Pick<MemberRecord, 'status' | 'roles'> | undefined) => {
    if (!before || !isActiveAdmin(before) || (after && isActiveAdmin(after))) return false;
    const membersLeft = after ? facts.members : facts.members - 1;
    return facts.activeAdmins <= 1 && membersLeft > 0;
  };
  if (before && before.source !== 'directory') return { result: { member: 'none', noActiveAdmin: false } };
  if (request.deleted) {
    if (!before) return { result: { member: 'removed', noActiveAdmin: false } };
    return {
      remove: true,
      event: memberAuditEvent('member.removed', before, { roles: before.roles, source: 'directory', ...meta }),
      result: { member: 'removed', noActiveAdmin: lostLastAdmin(undefined) },
    };
  }
  const known = [...new Set(request.askedRoles)].filter((slug) => facts.knownRoles.has(slug)).sort();
  const roles = known.length > 0 ? known : ['MEMBER'];
  const permissions = [...new Set(roles.flatMap((slug) => facts.knownRoles.get(slug) ?? []))].sort();
  const status = request.active ? ('active' as const) : ('inactive' as const);
  if (!before) {
    if (!request.active) return { result: { member: 'none', noActiveAdmin: false } };
    const member: MemberRecord = { tenantId: request.tenantId, userId: request.userId, email: request.email, name: request.name, roles, permissions, status, source: 'directory', createdAt: now, updatedAt: now };
    return { put: member, event: memberAuditEvent('member.added', member, { roles, source: 'directory', ...meta }), result: { member: 'active', noActiveAdmin: false } };
  }
  // Asked again after the change was written (a retried sync): still reported, so the event is not lost.
  const stillNoAdmin = !isActiveAdmin(before) && before.roles.includes(TENANT_ADMIN_ROLE) && facts.activeAdmins === 0 && facts.members > 0;
  if (before.status === status && before.roles.join(' ') === roles.join(' ')) return { result: { member: status, noActiveAdmin: stillNoAdmin } };
  const member: MemberRecord = { ...before, status, roles, permissions, updatedAt: now };
  const event =
    before.status !== status
      ? memberAuditEvent(request.active ? 'member.reactivated' : 'member.deactivated', member, { from: before.status, to: status, ...meta })
      : memberAuditEvent('member.roles_changed', member, { old: before.roles, new: roles, ...meta });
  return { put: member, event, result: { member: status, noActiveAdmin: lostLastAdmin(member) || (!isActiveAdmin(member) && stillNoAdmin) } };
}
