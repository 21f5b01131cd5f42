import { conflict, notFound } from '../errors.ts';
import { grantedRoles } from '../members/memberRoles.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { InvitationCreate } from '../schemas/invitations.ts';
import { newInvitation } from './newInvitation.ts';
import type { InvitationRecord } from './invitationRecord.ts';
import { tenantSettingsOf, type TenantSettings } from '../tenants/tenantSettings.ts';
import type { InvitationChange, InvitationChangeFacts } from './invitationRepository.ts';
import { invitationListing } from '../reads/listingNames.ts';
import { requireBelowLimit, type TenantLimits } from '../tenants/tenantLimits.ts';

/** Who an invitation names as its inviter: the token's client, or `anonymous` with authentication off. */
export const inviterOf = (meta: RequestMeta): string => meta.recordedBy ?? meta.actorId ?? 'anonymous';

/**
 * The invitation rule (SPEC-EXTENSIONS §8): a pending invitation of the same address to the tenant is answered again
 * and nothing is sent; an address that is already a member's (active, inactive, or pending through another way in)
 * is 409; the roles must be the tenant's (400), default the tenant's default role (MEMBER unless set), the days its setting (7).
 * Below the tenant's limits of pending invitations and of sends in the hour (409 `limit_reached`; a send without the
 * e-mail counts: its link is handed out all the same). A new invitation is pending, its first send requested
 * now (the actor sends it: `send`), and `invitation.created` says with which roles and until when.
 */
export function planInvitation(
  id: string,
  body: InvitationCreate,
  invitedBy: string,
  settings: TenantSettings,
  limits: TenantLimits,
  facts: InvitationChangeFacts,
  now: Date,
): InvitationChange<{ invitation: InvitationRecord; created: boolean }> {
  if (facts.invitation) return { result: { invitation: facts.invitation, created: false } };
  if (facts.member) throw conflict(`${body.email} is already a member of this tenant (${facts.member.status})`);
  requireBelowLimit(limits, 'pending_invitations', facts.pendingOfTenant);
  requireBelowLimit(limits, 'invitations_sent_per_hour', facts.sentInWindow);
  const { roles } = grantedRoles(body.roles ?? [settings.default_role], facts.knownRoles);
  const { invitation, event } = newInvitation(
    {
      id,
      tenantId: facts.tenantId,
      email: body.email,
      roles,
      invitedBy,
      sendEmail: body.send_email ?? true,
      userId: null,
      days: body.expires_in_days ?? settings.invitation_expiry_days,
      from: now,
    },
    now,
  );
  return { invitation, events: [event], send: true, result: { invitation, created: true } };
}

/**
 * Invites the address to the tenant: the invitation is written with its audit event and the hand-off of its send in
 * one transaction, then the send is delivered to the tenant's actor, which waits a bounded time for the link.
 */
export async function createInvitation(
  { stores, effects, tenantLimits }: RegistryContext,
  tenantId: string,
  body: InvitationCreate,
  meta: RequestMeta,
): Promise<{ invitation: InvitationRecord; created: boolean; inviteUrl?: string }> {
  const id = crypto.randomUUID();
  const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
  if (!tenant) throw notFound('tenant');
  const settings = tenantSettingsOf(tenant.settings);
  const roles = body.roles ?? [settings.default_role];
  const written = await stores.invitations.change({ by: 'email', tenantId, email: body.email }, meta, roles, (facts, now) =>
    planInvitation(id, body, inviterOf(meta), settings, tenantLimits, facts, now),
  );
  if (!written) throw notFound('tenant');
  effects.follow({ staleListings: [invitationListing(tenantId)] });
  if (!written.send) return written.result;
  const inviteUrl = await effects.inviteWithinWait(written.send);
  return { ...written.result, ...(inviteUrl ? { inviteUrl } : {}) };
}
