import { EVERY_TENANT, reaches, type TenantReach } from '../access/tenantReach.ts';
import { invitationChangeEffects } from '../changeEffects/invitationChangeEffects.ts';
import { notFound } from '../errors.ts';
import { memberAuditEvent } from '../members/memberAuditEvent.ts';
import type { MemberRecord } from '../members/memberRecord.ts';
import type { RegistryContext } from '../registryContext.ts';
import { SYSTEM_ACTOR } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import { invitationAuditEvent } from './invitationAuditEvent.ts';
import type { InvitationRecord } from './invitationRecord.ts';
import type { InvitationChange, InvitationChangeFacts } from './invitationRepository.ts';

/**
 * How an acceptance reached the registry: only through the invite link its invitee completed, with the link's secret
 * (SPEC-EXTENSIONS §13: no read, such as a claims request, accepts an invitation).
 */
export type AcceptedThrough = { via: 'link'; nonce: string };

/** A link that does not open its invitation now: tampered, superseded by a resend, revoked, expired or used. */
export const invalidLink = () => notFound('invitation link (invalid or expired)');

/** Whether `nonce` opens the invitation at `now`: the current link of a pending invitation that has not expired. */
export function linkOpens(invitation: InvitationRecord | undefined, nonce: string, now: Date): invitation is InvitationRecord {
  return invitation !== undefined && invitation.state === 'pending' && invitation.linkNonce === nonce && invitation.expiresAt.getTime() > now.getTime();
}

/**
 * The acceptance rule (SPEC-EXTENSIONS §8, §13): a pending invitation becomes `accepted` with the accepting user's id,
 * and its member `active` with the invitation's roles (those the tenant still has; MEMBER when none is left), or stays
 * as it is when it is already active or inactive through another way in. The link must be the current one, for the
 * user it was sent to (404 otherwise, what a provider's invalid-link page says).
 */
export function planAcceptance(userId: string, through: AcceptedThrough) {
  return (facts: InvitationChangeFacts, now: Date): InvitationChange<InvitationRecord | undefined> => {
    const before = facts.invitation;
    if (!linkOpens(before, through.nonce, now) || before.userId !== userId) throw invalidLink();
    const invitation: InvitationRecord = { ...before, state: 'accepted', acceptedAt: now, acceptedUserId: userId, linkNonce: null, updatedAt: now };
    const events: AuditAppend[] = [invitationAuditEvent('invitation.accepted', invitation, { user_id: userId, roles: before.roles, via: through.via })];
    const existing = facts.member;
    if (existing && existing.status !== 'pending') return { invitation, events, result: invitation };
    const kept = before.roles.filter((slug) => facts.knownRoles.has(slug));
    const roles = kept.length > 0 ? kept : facts.knownRoles.has('MEMBER') ? ['MEMBER'] : [];
    const member: MemberRecord = {
      tenantId: before.tenantId,
      userId,
      email: existing?.email || before.email,
      name: existing?.name ?? '',
      roles,
      permissions: [...new Set(roles.flatMap((slug) => facts.knownRoles.get(slug) ?? []))].sort(),
      status: 'active',
      source: existing?.source ?? 'invitation',
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    events.push(memberAuditEvent(existing ? 'member.activated' : 'member.added', member, { roles, source: member.source, invitation_id: before.id }));
    return { invitation, events, member: { put: member }, result: invitation };
  };
}

/**
 * Records an acceptance (the identity provider's report, or the simulated provider's completed link) with its member
 * change and the member's sync, by the system.
 */
export async function acceptInvitation(
  { stores, effects }: RegistryContext,
  target: { by: 'id'; id: string },
  userId: string,
  through: AcceptedThrough,
): Promise<InvitationRecord | undefined> {
  const found = await stores.invitations.find(target.id);
  if (!found) throw invalidLink();
  // The invitation's own roles are read with it; MEMBER is the fallback when none of them is left.
  const written = await stores.invitations.change(target, SYSTEM_ACTOR, ['MEMBER'], planAcceptance(userId, through));
  if (!written) return undefined;
  effects.follow(invitationChangeEffects(found.tenantId, written));
  return written.result;
}

/**
 * Whether an invite link made for this invitation and secret opens it now (the provider's link page asks), for the
 * user it was sent to when the provider names one; another tenant's, for a caller bound to tenants, opens nothing.
 */
export async function invitationLinkOpens(
  { stores }: RegistryContext,
  invitationId: string,
  nonce: string,
  userId?: string,
  reach: TenantReach = EVERY_TENANT,
): Promise<boolean> {
  const invitation = await stores.invitations.find(invitationId);
  if (!linkOpens(invitation, nonce, new Date()) || !reaches(reach, invitation.tenantId)) return false;
  return userId === undefined || invitation.userId === userId;
}

/** The identity provider's report that the user completed the link (its invalid-link answer is 404, as the provider's page). */
export async function acceptInvitationLink(context: RegistryContext, invitationId: string, nonce: string, userId: string, reach: TenantReach): Promise<InvitationRecord> {
  const found = await context.stores.invitations.find(invitationId);
  if (!found || !reaches(reach, found.tenantId)) throw invalidLink();
  const accepted = await acceptInvitation(context, { by: 'id', id: invitationId }, userId, { via: 'link', nonce });
  if (!accepted) throw invalidLink();
  return accepted;
}
