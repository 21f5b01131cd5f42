import { memberAuditEvent } from '../members/memberAuditEvent.ts';
import type { MemberRecord } from '../members/memberRecord.ts';
import { TENANT_ADMIN_ROLE } from '../members/tenantAdminRole.ts';
import type { DirectoryUser } from '../members/userDirectory.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import { invitationAuditEvent } from './invitationAuditEvent.ts';
import { newInvitation } from './newInvitation.ts';
import { newLinkNonce, sendsInWindow } from './invitationLink.ts';
import { DEFAULT_INVITATION_EXPIRY_DAYS, PROVISIONING_INVITER, type InvitationRecord } from './invitationRecord.ts';
import type { InvitationChange, InvitationChangeFacts } from './invitationRepository.ts';


/** The link provisioning's invite is sent with; none when the administrator is a member already (active or inactive). */
export type ProvisioningLink = { invitationId: string; nonce: string } | { none: true };

/**
 * The invitation of a tenant's first IT_ADMIN (SPEC-EXTENSIONS §8: provisioning's invite is an invitation like any
 * other, roles [IT_ADMIN], inviter `provisioning`). The pending invitation of the administrator's address is reused
 * (a repeated step sends its link; an operator's resend, `again`, makes a new link and starts its expiry again);
 * without one a new invitation is made, and the user becomes a pending member with source `provisioning`, unless it
 * is a member already. The expiry counts from `asOf`, the actor's time (the timer that expires it runs on that clock).
 */
export function planProvisioningInvitation(id: string, admin: DirectoryUser, again: boolean, asOf: Date) {
  return (facts: InvitationChangeFacts, now: Date): InvitationChange<ProvisioningLink> => {
    const pending = facts.invitation;
    if (pending?.linkNonce) {
      if (!again) {
        if (pending.userId === admin.userId) return { result: { invitationId: pending.id, nonce: pending.linkNonce } };
        return { invitation: { ...pending, userId: admin.userId, updatedAt: now }, result: { invitationId: pending.id, nonce: pending.linkNonce } };
      }
      const lifetime = pending.expiresAt.getTime() - (pending.lastSentAt ?? pending.createdAt).getTime();
      const resent: InvitationRecord = {
        ...pending,
        userId: admin.userId,
        expiresAt: new Date(asOf.getTime() + lifetime),
        sendCount: pending.sendCount + 1,
        lastSentAt: now,
        recentSends: [...sendsInWindow(pending.recentSends, now), now],
        linkNonce: newLinkNonce(),
        updatedAt: now,
      };
      const event = invitationAuditEvent('invitation.resent', resent, { send_count: resent.sendCount, expires_at: resent.expiresAt.toISOString(), was: 'pending' });
      return { invitation: resent, events: [event], result: { invitationId: resent.id, nonce: resent.linkNonce! } };
    }
    if (facts.member && facts.member.status !== 'pending') return { result: { none: true } };
    const { invitation, event } = newInvitation(
      {
        id,
        tenantId: facts.tenantId,
        email: admin.email.trim().toLowerCase(),
        roles: [TENANT_ADMIN_ROLE],
        invitedBy: PROVISIONING_INVITER,
        sendEmail: true,
        userId: admin.userId,
        days: DEFAULT_INVITATION_EXPIRY_DAYS,
        from: asOf,
      },
      now,
    );
    const events: AuditAppend[] = [event];
    const result = { invitationId: id, nonce: invitation.linkNonce! };
    if (facts.member) return { invitation, events, result };
    const permissions = [...(facts.knownRoles.get(TENANT_ADMIN_ROLE) ?? [])];
    const member: MemberRecord = {
      tenantId: facts.tenantId,
      userId: admin.userId,
      email: invitation.email,
      name: admin.name,
      roles: [TENANT_ADMIN_ROLE],
      permissions,
      status: 'pending',
      source: 'provisioning',
      createdAt: now,
      updatedAt: now,
    };
    events.push(memberAuditEvent('member.added', member, { roles: member.roles, source: member.source, invitation_id: id }));
    return { invitation, events, member: { put: member }, result };
  };
}
