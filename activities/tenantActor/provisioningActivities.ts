import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { planProvisioningInvitation } from '../../domain/invitations/provisioningInvitation.ts';
import { TENANT_ADMIN_ROLE } from '../../domain/members/tenantAdminRole.ts';
import type { DirectoryUser } from '../../domain/members/userDirectory.ts';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import type { InviteLink, TenantRef } from '../../identityProvider/identityProvider.ts';
import {
  nextProviderStep,
  type ProviderStepsDone,
  type ProviderStepsRequest,
  type ProviderStepsStopped,
  type TenantForProvisioning,
} from '../../domain/provisioning/provisioningVocabulary.ts';
import type { ActorActivityContext } from './actorActivityContext.ts';
import { asActivityFailure, messageOf, stepsStopped } from './activityFailures.ts';
import { sendInvite } from './inviteEmail.ts';
import { ensureOrganization, pushTenantClaims } from './organizationActivities.ts';

/** The tenant as provisioning needs it; a tenant that does not exist is `tenant_not_found`, an answer, not a failure to retry. */
async function loadTenantForProvisioning({ stores }: ActorActivityContext, tenantId: string): Promise<TenantForProvisioning> {
  const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
  if (!tenant) throw ApplicationFailure.create({ type: 'tenant_not_found', message: `tenant ${tenantId} not found`, nonRetryable: true });
  return { tenantId: tenant.id, slug: tenant.slug, name: tenant.name, adminEmail: tenant.adminEmail, adminName: tenant.adminName };
}

/**
 * The provider's steps of a provisioning, one after the other in one local activity: organization, user,
 * membership, invite, then the tenant's claims (so the user's first token carries them). Steps in `done` are not run
 * again. A failed attempt throws a non-retryable failure typed by its kind, naming its step and carrying how far it
 * got (stepsStopped), so the actor retries from the step that failed on its own durable timer with that step's
 * budget; one activity, where five would each be an activation of the actor and a marker in its history.
 */
async function runProviderSteps(context: ActorActivityContext, request: ProviderStepsRequest, done: ProviderStepsDone): Promise<ProviderStepsDone> {
  const { stores, idp, step } = context;
  const progress = { ...done };
  const tenant: TenantRef = { tenantId: request.tenantId, slug: request.slug, name: request.organizationName };
  try {
    progress.organizationId ??= (await ensureOrganization(context, tenant)).organizationId;
    progress.userId ??= (await step('user', () => asActivityFailure(() => idp.ensureUser(tenant, request.adminEmail, request.adminName)))).userId;
    if (!progress.member) {
      // The administrator's invitation and its pending member (role IT_ADMIN) before the claims push below,
      // which then carries its roles.
      const admin = { userId: progress.userId, email: request.adminEmail, name: request.adminName ?? '' };
      const { link, memberSync } = await provisioningInvitation(context, request.tenantId, admin, false, request.asOf ?? Date.now());
      if (link) progress.invitation = link;
      if (memberSync !== undefined) progress.memberSync = memberSync;
      const organizationId = progress.organizationId;
      const userId = progress.userId;
      await step('membership', () => asActivityFailure(() => idp.ensureMembership(organizationId, userId)));
      progress.member = true;
    }
    if (!progress.invited) {
      const link = progress.invitation ? { ...progress.invitation, sendEmail: true, organization: request.slug } : undefined;
      const { inviteUrl } = await sendInvite(context, progress.userId, request.tenantId, request.runKey, link);
      progress.invited = inviteUrl ? { inviteUrl } : {};
    }
    await pushTenantClaims(context, request.tenantId);
    // The push synced every member as the store has it now, the administrator's pending one too: the outbox's
    // copy of that member's sync is done (else the relay wakes the actor minutes later to sync it again).
    if (progress.memberSync !== undefined) await stores.outbox?.markDelivered([progress.memberSync]);
    return progress;
  } catch (error) {
    const stopped: ProviderStepsStopped = { step: nextProviderStep(progress), message: messageOf(error), done: progress };
    throw stepsStopped(error, stopped);
  }
}

/**
 * An operator's resend of the administrator's invite (the actor's resendInvite): its invitation gets a new link (the
 * one before stops working) and the e-mail goes out with it. Provisioning's invite is a step of runProviderSteps.
 */
async function resendAdminInvite(context: ActorActivityContext, tenantId: string, userId: string, asOf: number): Promise<{ inviteUrl?: string; alreadySent?: true }> {
  const tenant = await context.stores.tenants.find({ by: 'id', id: tenantId });
  if (!tenant?.adminEmail) return sendInvite(context, userId, tenantId);
  const { link } = await provisioningInvitation(context, tenantId, { userId, email: tenant.adminEmail, name: tenant.adminName ?? '' }, true, asOf);
  return sendInvite(context, userId, tenantId, undefined, link ? { ...link, sendEmail: true, organization: tenant.slug } : undefined);
}

/**
 * The invitation of the tenant's first IT_ADMIN (planProvisioningInvitation): made with its pending member, or the
 * pending one reused; `again` (an operator's resend) gives it a new link. No link when the administrator is a
 * member already, whose invite then opens no invitation. `memberSync`: the outbox row of the member's sync, when
 * the member was written.
 */
async function provisioningInvitation(
  { stores }: ActorActivityContext,
  tenantId: string,
  admin: DirectoryUser,
  again: boolean,
  asOf: number,
): Promise<{ link?: { invitationId: string; nonce: string }; memberSync?: number }> {
  const invitations = stores.invitations;
  if (!invitations) throw new Error('the invitations store is not configured in this worker');
  const target = { by: 'email', tenantId, email: admin.email.trim().toLowerCase() } as const;
  const written = await invitations.change(target, SYSTEM_ACTOR, [TENANT_ADMIN_ROLE], planProvisioningInvitation(randomUUID(), admin, again, new Date(asOf)));
  return {
    ...(written && !('none' in written.result) ? { link: written.result } : {}),
    ...(written?.memberSync ? { memberSync: written.memberSync.id } : {}),
  };
}

/** The provisioning family's activities: the tenant read, the provider's steps, an operator's resend, and the invite e-mail they share. */
export const provisioningActivities = (context: ActorActivityContext) => ({
  loadTenantForProvisioning: (tenantId: string) => loadTenantForProvisioning(context, tenantId),
  runProviderSteps: (request: ProviderStepsRequest, done: ProviderStepsDone) => runProviderSteps(context, request, done),
  resendAdminInvite: (tenantId: string, userId: string, asOf: number) => resendAdminInvite(context, tenantId, userId, asOf),
  /** The invite e-mail of one user, once per run key (the invite ledger): the step both sends go through. */
  sendInvite: (userId: string, tenantId?: string, runKey?: string, link?: InviteLink) => sendInvite(context, userId, tenantId, runKey, link),
});
