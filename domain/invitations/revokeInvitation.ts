import { conflict, notFound } from '../errors.ts';
import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { invitationChangeEffects } from '../changeEffects/invitationChangeEffects.ts';
import { memberAuditEvent } from '../members/memberAuditEvent.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import { invitationAuditEvent } from './invitationAuditEvent.ts';
import type { InvitationRecord } from './invitationRecord.ts';
import type { InvitationChange, InvitationChangeFacts } from './invitationRepository.ts';

/**
 * An invitation closed without acceptance (revoked or expired): its link stops working (the nonce goes) and the
 * pending member it made goes with it (`member.removed`), so the provider's organization drops the user too.
 */
export function closedInvitation(
  facts: InvitationChangeFacts,
  state: 'revoked' | 'expired',
  now: Date,
  metadata: Record<string, unknown>,
): InvitationChange<InvitationRecord> {
  const before = facts.invitation!;
  const invitation: InvitationRecord = { ...before, state, linkNonce: null, updatedAt: now, ...(state === 'revoked' ? { revokedAt: now } : {}) };
  const events: AuditAppend[] = [invitationAuditEvent(`invitation.${state}`, invitation, metadata)];
  const pending = facts.member?.status === 'pending' ? facts.member : undefined;
  if (!pending) return { invitation, events, result: invitation };
  events.push(memberAuditEvent('member.removed', pending, { roles: pending.roles, status: pending.status, source: pending.source, invitation_id: before.id }));
  return { invitation, events, member: { remove: pending }, result: invitation };
}

/** The revocation rule: an accepted invitation cannot be revoked (409); a revoked one is answered as it is. */
export function planRevocation(facts: InvitationChangeFacts, now: Date): InvitationChange<InvitationRecord> {
  const before = facts.invitation;
  if (!before) throw notFound('invitation');
  if (before.state === 'accepted') throw conflict('an accepted invitation cannot be revoked; remove the member instead');
  if (before.state === 'revoked') return { result: before };
  return closedInvitation(facts, 'revoked', now, { was: before.state });
}

export async function revokeInvitation({ stores, effects }: RegistryContext, id: string, meta: RequestMeta, reach: TenantReach): Promise<InvitationRecord> {
  const found = await stores.invitations.find(id);
  if (!found) throw notFound('invitation');
  requireReach(reach, found.tenantId, 'invitation');
  const written = await stores.invitations.change({ by: 'id', id }, meta, [], planRevocation);
  if (!written) throw notFound('invitation');
  effects.follow(invitationChangeEffects(found.tenantId, written));
  return written.result;
}
