import { AppError, conflict, notFound } from '../errors.ts';
import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { invitationAuditEvent } from './invitationAuditEvent.ts';
import { newLinkNonce, SEND_WINDOW_MS, SENDS_PER_WINDOW, sendsInWindow } from './invitationLink.ts';
import type { InvitationRecord } from './invitationRecord.ts';
import type { InvitationChange, InvitationChangeFacts } from './invitationRepository.ts';
import { invitationListing } from '../reads/listingNames.ts';
import { requireBelowLimit, type TenantLimits } from '../tenants/tenantLimits.ts';

/**
 * The resend rule: only a pending or expired invitation is sent again (409 otherwise), below the tenant's limit of
 * sends in the hour (and, an expired one, of pending invitations: 409 `limit_reached`), at most SENDS_PER_WINDOW
 * times in SEND_WINDOW_MS (429, with the seconds until the oldest send leaves the window). A resend makes a new link (the
 * one before stops working at once), starts the expiry again with the invitation's own length, and makes an expired
 * invitation pending again.
 */
export function planResend(limits: TenantLimits, facts: InvitationChangeFacts, now: Date): InvitationChange<InvitationRecord> {
  const before = facts.invitation;
  if (!before) throw notFound('invitation');
  if (before.state !== 'pending' && before.state !== 'expired') throw conflict(`an invitation that is ${before.state} cannot be resent`);
  requireBelowLimit(limits, 'invitations_sent_per_hour', facts.sentInWindow);
  // An expired one made pending again takes a place among the pending.
  if (before.state === 'expired') requireBelowLimit(limits, 'pending_invitations', facts.pendingOfTenant);
  const recent = sendsInWindow(before.recentSends, now);
  if (recent.length >= SENDS_PER_WINDOW) {
    const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]!.getTime() + SEND_WINDOW_MS - now.getTime()) / 1000));
    throw new AppError('rate_limited', `an invitation is sent at most ${SENDS_PER_WINDOW} times in 10 minutes; retry after Retry-After seconds`, { retryAfterSeconds });
  }
  const lifetime = before.expiresAt.getTime() - before.lastSentAt!.getTime();
  const invitation: InvitationRecord = {
    ...before,
    state: 'pending',
    expiresAt: new Date(now.getTime() + lifetime),
    sendCount: before.sendCount + 1,
    lastSentAt: now,
    recentSends: [...recent, now],
    linkNonce: newLinkNonce(),
    updatedAt: now,
  };
  const event = invitationAuditEvent('invitation.resent', invitation, {
    send_count: invitation.sendCount,
    expires_at: invitation.expiresAt.toISOString(),
    was: before.state,
  });
  return { invitation, events: [event], send: true, result: invitation };
}

/** Sends the invitation again with a new link and waits a bounded time for it (as a creation does). */
export async function resendInvitation(
  { stores, effects, tenantLimits }: RegistryContext,
  id: string,
  meta: RequestMeta,
  reach: TenantReach,
): Promise<{ invitation: InvitationRecord; inviteUrl?: string }> {
  const found = await stores.invitations.find(id);
  if (!found) throw notFound('invitation');
  requireReach(reach, found.tenantId, 'invitation');
  const written = await stores.invitations.change({ by: 'id', id }, meta, [], (facts, now) => planResend(tenantLimits, facts, now));
  if (!written?.send) throw notFound('invitation');
  effects.follow({ staleListings: [invitationListing(found.tenantId)] });
  const inviteUrl = await effects.inviteWithinWait(written.send);
  return { invitation: written.result, ...(inviteUrl ? { inviteUrl } : {}) };
}
