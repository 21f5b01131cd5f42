import type { MemberChange, MemberChangeFacts } from '../members/memberRepository.ts';
import { memberAuditEvent } from '../members/memberAuditEvent.ts';
import type { MemberRecord } from '../members/memberRecord.ts';
import { isActiveAdmin, losesLastActiveAdmin } from '../members/lastActiveAdmin.ts';
import { TENANT_ADMIN_ROLE } from '../members/tenantAdminRole.ts';
import type { DirectoryRecord } from './directoryRecord.ts';
import type { DirectoryUserRecord } from './directoryUserRecord.ts';
import { emailOf, nameOf } from './scimUserResource.ts';

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

/**
 * What a SCIM user, linked to the account `userId`, asks of its member: its name and address, whether it is active or
 * deleted, and its roles, the tenant's default role plus those the directory's `group_roles` give its groups
 * (SPEC-EXTENSIONS §10). A deleted user's groups ask nothing.
 */
export function directoryMemberRequest(
  directory: Pick<DirectoryRecord, 'id' | 'tenantId' | 'groupRoles'>,
  user: Pick<DirectoryUserRecord, 'userName' | 'resource' | 'active' | 'deletedAt'>,
  userId: string,
  defaultRole: string,
  groupNames: readonly string[],
): DirectoryMemberRequest {
  const deleted = user.deletedAt !== null;
  const askedRoles = [defaultRole, ...(deleted ? [] : groupNames.flatMap((name) => directory.groupRoles[name] ?? []))];
  return { tenantId: directory.tenantId, directoryId: directory.id, userId, email: emailOf(user) ?? user.userName, name: nameOf(user), active: user.active, deleted, askedRoles };
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
  const lostLastAdmin = (after: Pick<MemberRecord, 'status' | 'roles'> | undefined) => losesLastActiveAdmin(facts, after);
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

/**
 * Whether the directory's change enables (true) or disables (false) the account, or leaves it alone (undefined)
 * (SPEC-EXTENSIONS §13). A leaver the directory made must not sign in any more: the account follows the SCIM user
 * only when the directory made it and the tenant governs it now (`mayTouchAccount`, judged before the member changed),
 * and only when the directory had a say about its member.
 */
export function directoryAccountEnabled(request: Pick<DirectoryMemberRequest, 'active' | 'deleted'>, mayTouchAccount: boolean, outcome: DirectoryMemberOutcome): boolean | undefined {
  if (!mayTouchAccount || outcome.member === 'none') return undefined;
  return request.active && !request.deleted;
}
