import { memberChangeEffects } from '../changeEffects/memberChangeEffects.ts';
import { AppError, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { MemberPut } from '../schemas/members.ts';
import { requireActiveAdminKept } from './lastActiveAdmin.ts';
import { memberAuditEvent } from './memberAuditEvent.ts';
import type { MemberRecord } from './memberRecord.ts';
import type { MemberChange, MemberChangeFacts } from './memberRepository.ts';
import { grantedRoles } from './memberRoles.ts';
import type { DirectoryUser, UserDirectory } from './userDirectory.ts';

/** A PUT's outcome, or, for a user that is not a member yet, that the identity provider's user is needed first. */
export type MemberPutOutcome = { member: MemberRecord; created: boolean } | { needsUser: true };

/**
 * The PUT rule: the roles must exist for the tenant (400). A member's roles are replaced (`member.roles_changed`
 * with the old and new ones; unchanged roles write nothing), unless that takes the tenant's last active IT_ADMIN away
 * (409). A user that is not a member becomes one from the provider's `user` (its e-mail and name): active, source
 * `registry`, `member.added`; without `user` nothing is written and the outcome asks for it.
 */
export function planMemberPut(
  tenantId: string,
  userId: string,
  asked: readonly string[],
  facts: MemberChangeFacts,
  user: DirectoryUser | undefined,
  now: Date,
): MemberChange<MemberPutOutcome> {
  const { roles, permissions } = grantedRoles(asked, facts.knownRoles);
  const before = facts.member;
  if (before) {
    if (before.roles.join(' ') === roles.join(' ')) return { result: { member: before, created: false } };
    requireActiveAdminKept(facts, { status: before.status, roles });
    const member: MemberRecord = { ...before, roles, permissions, updatedAt: now };
    return { put: member, event: memberAuditEvent('member.roles_changed', member, { old: before.roles, new: roles }), result: { member, created: false } };
  }
  if (!user) return { result: { needsUser: true } };
  const member: MemberRecord = {
    tenantId,
    userId,
    email: user.email,
    name: user.name,
    roles,
    permissions,
    status: 'active',
    source: 'registry',
    createdAt: now,
    updatedAt: now,
  };
  return { put: member, event: memberAuditEvent('member.added', member, { roles, source: member.source }), result: { member, created: true } };
}

/** The provider's user: 404 when it has none, 503 when it cannot answer (or none is configured). */
async function directoryUser(users: UserDirectory | undefined, userId: string): Promise<DirectoryUser> {
  if (!users) throw new AppError('unavailable', 'identity provider not configured');
  let user: DirectoryUser | undefined;
  try {
    user = await users.findUser(userId);
  } catch (cause) {
    const kind = (cause as { kind?: unknown } | undefined)?.kind;
    throw new AppError('unavailable', `identity provider: ${typeof kind === 'string' ? kind : 'unreachable'}`);
  }
  if (!user) throw notFound('user');
  return user;
}

/**
 * Makes the provider's user a member with these roles (created) or replaces a member's roles. The provider is asked
 * only for a user that is not a member yet, outside the change's transaction (no lock waits on it); the change is
 * then judged again under the lock, so a member made meanwhile has its roles replaced instead.
 */
export async function putMember(
  { stores, effects, users }: RegistryContext,
  tenantId: string,
  userId: string,
  body: MemberPut,
  meta: RequestMeta,
): Promise<{ member: MemberRecord; created: boolean }> {
  const attempt = async (user: DirectoryUser | undefined) => {
    const written = await stores.members.change(tenantId, userId, meta, body.roles, (facts, now) => planMemberPut(tenantId, userId, body.roles, facts, user, now));
    if (!written) throw notFound('tenant');
    return written;
  };
  let written = await attempt(undefined);
  // At most once: with the provider's user in hand the rule never asks for it again.
  while ('needsUser' in written.result) written = await attempt(await directoryUser(users, userId));
  if (written.handOffs.length > 0) effects.follow(memberChangeEffects(tenantId, userId, written));
  return written.result;
}
