import { log } from '@temporalio/activity';
import { PROVISIONING_INVITER } from '../../domain/invitations/invitationRecord.ts';
import { planInvitedUser } from '../../domain/invitations/recordInvitedUser.ts';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import type { TenantRef } from '../../identityProvider/identityProvider.ts';
import {
  INVITATION_STEPS,
  organizationNameOf,
  sentInvitationOutcomeId,
  type InvitationSendRecorded,
  type InvitationStep,
  type InvitationStepsDone,
  type InvitationStepsStopped,
} from '../../domain/provisioning/provisioningVocabulary.ts';
import type { ActorActivityContext } from './actorActivityContext.ts';
import { asActivityFailure, messageOf, stepsStopped } from './activityFailures.ts';
import { sendInvite } from './inviteEmail.ts';
import { ensureOrganization } from './organizationActivities.ts';
import { recordInvitationOutcome } from './outcomeActivities.ts';
import { syncMemberNow } from './syncActivities.ts';

/**
 * The steps of an invitation's send: the tenant's organization; the invitation's user, found by its e-mail or made
 * (a person may belong to several tenants); the invitation records the user and the user becomes a pending member,
 * whose side in the provider is synced at once (organization membership, pushed claims); then the e-mail with the
 * link of the invitation's current secret, once per secret (the invite ledger: a re-run of the same attempt
 * does not mail twice). An invitation no longer pending sends nothing. A failed attempt throws a non-retryable
 * failure typed by its kind with the step it stopped at; the actor retries it by its policy. Answers too when the
 * invitation sent expires.
 */
async function invitationSteps(context: ActorActivityContext, tenantId: string, invitationId: string): Promise<{ done: InvitationStepsDone; expiresAt?: number }> {
  const { stores, idp } = context;
  const invitations = stores.invitations;
  if (!invitations) throw new Error('the invitations store is not configured in this worker');
  let step: InvitationStep = INVITATION_STEPS[0];
  try {
    const invitation = await invitations.find(invitationId);
    const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
    if (!invitation || invitation.tenantId !== tenantId || invitation.state !== 'pending' || !invitation.linkNonce || !tenant) return { done: { status: 'skipped' } };
    const ref: TenantRef = { tenantId, slug: tenant.slug, name: organizationNameOf(tenant) };
    const { organizationId } = await ensureOrganization(context, ref);
    step = 'user';
    const { userId } = await context.step('user', () => asActivityFailure(() => idp.ensureInvitedUser(ref, invitation.email)));
    step = 'member';
    const source = invitation.invitedBy === PROVISIONING_INVITER ? 'provisioning' : 'invitation';
    const user = { userId, email: invitation.email, name: '' };
    const written = await invitations.change({ by: 'id', id: invitationId }, SYSTEM_ACTOR, [], planInvitedUser(user, source));
    if (!written || 'stale' in written.result) return { done: { status: 'skipped' } };
    const { nonce, sendEmail } = written.result;
    await context.step('sync_member', () => syncMemberNow(context, tenantId, userId, Date.now()));
    // Synced here, in the send's order: the outbox's copy of the same sync is done.
    if (written.memberSync) await stores.outbox?.markDelivered([written.memberSync.id]);
    step = 'invite';
    const sent = await sendInvite(context, userId, tenantId, `invitation:${invitationId}:${nonce}`, { invitationId, nonce, sendEmail, organization: ref.slug });
    const done = { status: 'sent' as const, userId, organizationId, sendCount: invitation.sendCount, ...(sent.inviteUrl ? { inviteUrl: sent.inviteUrl } : {}) };
    return { done, expiresAt: invitation.expiresAt.getTime() };
  } catch (error) {
    const stopped: InvitationStepsStopped = { step, message: messageOf(error) };
    throw stepsStopped(error, stopped);
  }
}

/**
 * An invitation's send and, once sent, its idp.invitation_sent event, in one local activity (one activation of the
 * actor, one marker in its history). Answers when the invitation expires, which the actor puts in its timeline
 * instead of reading the timeline again. An event that could not be appended is left to the actor
 * (`recorded: false`), which appends it retried until PostgreSQL answers, as it does a failure's.
 */
async function runInvitationStepsRecorded(context: ActorActivityContext, tenantId: string, invitationId: string): Promise<InvitationSendRecorded> {
  const { done, expiresAt } = await invitationSteps(context, tenantId, invitationId);
  if (done.status !== 'sent') return { done, recorded: false };
  const sent = { userId: done.userId, organizationId: done.organizationId, sendCount: done.sendCount };
  try {
    await recordInvitationOutcome(context, tenantId, invitationId, { status: 'sent' }, sentInvitationOutcomeId(invitationId, done.sendCount), sent);
    return { done, expiresAt, recorded: true };
  } catch (error) {
    log.warn('idp.invitation_sent not appended; the actor appends it', { tenantId, invitationId, error: messageOf(error) });
    return { done, expiresAt, recorded: false };
  }
}

/** The invitations family's activities: an invitation's send (the actor's sendInvitation), one attempt, with its event. */
export const invitationActivities = (context: ActorActivityContext) => ({
  runInvitationStepsRecorded: (tenantId: string, invitationId: string) => runInvitationStepsRecorded(context, tenantId, invitationId),
});
