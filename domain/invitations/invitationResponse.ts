import { isoTimestamp } from '../isoTimestamp.ts';
import type { Invitation, InvitationSent } from '../schemas/invitations.ts';
import type { InvitationRecord } from './invitationRecord.ts';

const orNull = (date: Date | null): string | null => (date ? isoTimestamp(date) : null);

export const toInvitation = (i: InvitationRecord): Invitation => ({
  id: i.id,
  tenant_id: i.tenantId,
  email: i.email,
  roles: i.roles,
  state: i.state,
  expires_at: isoTimestamp(i.expiresAt),
  invited_by: i.invitedBy,
  send_count: i.sendCount,
  last_sent_at: orNull(i.lastSentAt),
  accepted_at: orNull(i.acceptedAt),
  accepted_user_id: i.acceptedUserId,
  revoked_at: orNull(i.revokedAt),
  created_at: isoTimestamp(i.createdAt),
  updated_at: isoTimestamp(i.updatedAt),
});

/** The invitation with the link of the send just made, when the identity provider answered it in time. */
export const toInvitationSent = (i: InvitationRecord, inviteUrl: string | undefined): InvitationSent =>
  inviteUrl ? { ...toInvitation(i), invite_url: inviteUrl } : toInvitation(i);
