import { memberAuditEvent } from '../members/memberAuditEvent.ts';
import type { MemberRecord } from '../members/memberRecord.ts';
import type { DirectoryUser } from '../members/userDirectory.ts';
import type { InvitationChange, InvitationChangeFacts } from './invitationRepository.ts';

/** What the invitation's send goes on with: the link's secret, or nothing when the invitation no longer waits for one. */
export type InvitedUserRecorded = { nonce: string; email: string; sendEmail: boolean } | { stale: true };

/**
 * The rule of the send's step after the identity provider made or found the invited user: a pending invitation takes
 * the user's id, and the user becomes a `pending` member with the invitation's roles (source `invitation`, or
 * `provisioning` for a tenant's first IT_ADMIN; `member.added`), unless it is a member already. An invitation that
 * is no longer pending (revoked, accepted, expired meanwhile) sends nothing.
 */
export function planInvitedUser(user: DirectoryUser, source: 'invitation' | 'provisioning') {
  return (facts: InvitationChangeFacts, now: Date): InvitationChange<InvitedUserRecorded> => {
    const before = facts.invitation;
    if (!before || before.state !== 'pending' || !before.linkNonce) return { result: { stale: true } };
    const result = { nonce: before.linkNonce, email: before.email, sendEmail: before.sendEmail };
    const invitation = before.userId === user.userId ? undefined : { ...before, userId: user.userId, updatedAt: now };
    if (facts.member) return { ...(invitation ? { invitation } : {}), result };
    const roles = before.roles.filter((slug) => facts.knownRoles.has(slug));
    const member: MemberRecord = {
      tenantId: before.tenantId,
      userId: user.userId,
      email: before.email,
      name: user.name,
      roles,
      permissions: [...new Set(roles.flatMap((slug) => facts.knownRoles.get(slug) ?? []))].sort(),
      status: 'pending',
      source,
      createdAt: now,
      updatedAt: now,
    };
    const event = memberAuditEvent('member.added', member, { roles, source, invitation_id: before.id });
    return { ...(invitation ? { invitation } : {}), member: { put: member }, events: [event], result };
  };
}
