import type { AuditAppend } from '../schemas/audit.ts';
import { invitationAuditEvent } from './invitationAuditEvent.ts';
import { newLinkNonce } from './invitationLink.ts';
import type { InvitationRecord } from './invitationRecord.ts';

const DAY_MS = 24 * 60 * 60_000;

/**
 * A new pending invitation, its first send asked for now with a new link, expiring `days` after `from` (the request's
 * time, or the actor's for provisioning's), and its `invitation.created` event.
 */
export function newInvitation(
  fields: Pick<InvitationRecord, 'id' | 'tenantId' | 'email' | 'roles' | 'invitedBy' | 'sendEmail' | 'userId'> & { days: number; from: Date },
  now: Date,
): { invitation: InvitationRecord; event: AuditAppend } {
  const { days, from, ...given } = fields;
  const invitation: InvitationRecord = {
    ...given,
    state: 'pending',
    expiresAt: new Date(from.getTime() + days * DAY_MS),
    sendCount: 1,
    lastSentAt: now,
    recentSends: [now],
    acceptedAt: null,
    acceptedUserId: null,
    revokedAt: null,
    linkNonce: newLinkNonce(),
    createdAt: now,
    updatedAt: now,
  };
  const event = invitationAuditEvent('invitation.created', invitation, {
    roles: invitation.roles,
    expires_at: invitation.expiresAt.toISOString(),
    send_email: invitation.sendEmail,
    invited_by: invitation.invitedBy,
  });
  return { invitation, event };
}
