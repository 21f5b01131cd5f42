import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { ApplicationFailure, log } from '@temporalio/activity';
import { planDueLifecycle, upcomingLifecycleEvents, type LifecycleEvent } from '../../domain/tenants/lifecycleTimeline.ts';
import type { RegistryStores } from '../../domain/registryStores.ts';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import type { OperatorRequest } from '../../domain/tenantActor/tenantActorCommand.ts';
import { retryDelayMs, type RetryPolicy } from '../../domain/retryPolicy.ts';
import { planExpiry } from '../../domain/invitations/expireInvitation.ts';
import { checkDomain } from '../../domain/domains/verifyDomain.ts';
import type { DomainChecks } from '../../domain/domains/domainChecks.ts';
import { ssoAliasOf } from '../../domain/sso/ssoConnectionRecord.ts';
import { emailOf, nameOf } from '../../domain/directories/scimUserResource.ts';
import { directoryAccountEnabled, directoryMemberRequest } from '../../domain/directories/directoryMemberRule.ts';
import { changeDirectoryMember } from '../../domain/directories/changeDirectoryMember.ts';
import { tenantGovernsAccount } from '../../domain/accounts/tenantGovernance.ts';
import { tenantSettingsOf } from '../../domain/tenants/tenantSettings.ts';
import { planInvitedUser } from '../../domain/invitations/recordInvitedUser.ts';
import { planProvisioningInvitation } from '../../domain/invitations/provisioningInvitation.ts';
import { TENANT_ADMIN_ROLE } from '../../domain/members/tenantAdminRole.ts';
import type { DirectoryUser } from '../../domain/members/userDirectory.ts';
import {
  INVITATION_STEPS,
  type InvitationStep,
  sentInvitationOutcomeId,
  type InvitationSendRecorded,
  type InvitationStepsDone,
  type InvitationStepsStopped,
  isRetryableFailure,
  nextProviderStep,
  organizationNameOf,
  type ProviderStepsDone,
  type ProviderStepsRequest,
  type ProviderStepsStopped,
  type RecordedOutcome,
  type TenantForProvisioning,
} from '../../domain/provisioning/provisioningVocabulary.ts';
import { IdpError, type IdentityProvider, type InviteLink, type PushedMembership, type TenantRef } from '../../identityProvider/identityProvider.ts';
import { PROVISIONING_INVITER } from '../../domain/invitations/invitationRecord.ts';
import type { WorkerMetrics } from '../../platform/metrics/workerMetrics.ts';
import { isStoreUnreachable } from '../../store/storeUnreachable.ts';
import { pushedMembershipOf } from './pushedMembership.ts';

/** An event on the actor's timeline: the tenant's lifecycle, and the expiry of each pending invitation. */
export type ActorTimelineEvent =
  | LifecycleEvent
  | { kind: 'invitation_expired'; invitationId: string; at: number }
  | { kind: 'domain_check'; domainId: string; at: number };

/** What an outcome event names besides the outcome: the provider's ids known so far, and who asked, if an operator did. */
export interface OutcomeContext {
  userId?: string;
  organizationId?: string;
  request?: OperatorRequest;
}

/**
 * Who asked, in the outcome event: `requested_by` the requester (the token's client through the API), `note` what an
 * API caller said of itself, `requested_via` whether the registry or Temporal authenticated the requester.
 */
function requestMetadata({ requested_by, note, requested_via }: OperatorRequest): Record<string, string> {
  return { ...(requested_by ? { requested_by } : {}), ...(note ? { note } : {}), requested_via };
}

/**
 * Provider errors become ApplicationFailures typed by their kind: the workflow's retry policy retries only
 * `unavailable`; the other kinds are listed as non-retryable there and flagged so here as well.
 */
async function asActivityFailure<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof IdpError) {
      throw ApplicationFailure.create({ type: error.kind, message: error.message, nonRetryable: !isRetryableFailure(error.kind) });
    }
    throw error;
  }
}

/** The global tracer: a no-op unless tracing registered its provider (platform/tracing). */
const providerStepTracer = trace.getTracer('tenant-registry');

/** Backoff of the invite ledger's statements while its database does not answer: 100 ms doubling, at most 2 s apart. */
const LEDGER_RETRY: RetryPolicy = { initialIntervalMs: 100, backoffCoefficient: 2, maximumIntervalMs: 2_000 };

/** The side effects of a tenant's actor: the registry's database and the identity provider. */
export function createTenantActorActivities(deps: {
  stores: Pick<RegistryStores, 'tenants' | 'audit' | 'members'> & Partial<Pick<RegistryStores, 'invites' | 'invitations' | 'outbox' | 'domains' | 'ssoConnections' | 'directories' | 'directoryUsers' | 'directoryGroups'>>;
  /** Domains' TXT look-ups and their times; absent, the actor checks no domain. */
  domainChecks?: DomainChecks;
  idp: IdentityProvider;
  trialReminderDays?: number;
  metrics?: WorkerMetrics;
  /** How long the invite step waits for the invite ledger's database before giving up on it (see sendInvite). */
  inviteLedgerPatienceMs?: number;
}) {
  const { stores, idp, metrics } = deps;
  const ledgerPatienceMs = deps.inviteLedgerPatienceMs ?? 20_000;
  // A provider step: its own span within the activity's (traces on), timed when metrics are on.
  const providerStep = <T>(step: string, call: () => Promise<T>): Promise<T> =>
    providerStepTracer.startActiveSpan(`ProviderStep:${step}`, (span) => {
      const end = metrics?.provisioningStepDuration.startTimer({ step });
      return call().then(
        (value) => {
          end?.({ outcome: 'succeeded' });
          span.end();
          return value;
        },
        (error: unknown) => {
          end?.({ outcome: 'failed' });
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
          span.end();
          throw error;
        },
      );
    });
  const reminderDays = deps.trialReminderDays ?? 3;

  /**
   * The invite ledger's statements, tried again while its database does not answer (as when PostgreSQL restarts),
   * for up to `ledgerPatienceMs`: an outage of the registry's own database spends neither the provider's retry budget
   * nor, once the e-mail is sent, a second e-mail (a failed attempt is retried from the start, e-mail included).
   */
  async function patientlyWithLedger<T>(what: 'read' | 'record', call: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + ledgerPatienceMs;
    for (let failures = 1; ; failures++) {
      try {
        return await call();
      } catch (error) {
        const delay = retryDelayMs(LEDGER_RETRY, failures);
        if (!isStoreUnreachable(error) || Date.now() + delay > deadline) throw error;
        log.warn('invite ledger unreachable; trying again', { what, retryInMs: delay, error: (error as Error).message });
        await sleep(delay);
      }
    }
  }

  /**
   * Pushes the tenant's claims as of `asOf` into the attributes of each of its members (its own roles and
   * permissions; an inactive member's none) and of each other user of its organization (membership status `none`).
   * A member the provider does not have (a user deleted there) is skipped: there is nothing to write into, and one
   * such member must not hold back the tenant's push.
   */
  async function pushClaimsToMembers(tenantId: string, asOf?: number): Promise<{ users: number }> {
    const tenant = await stores.tenants.snapshot({ by: 'id', id: tenantId });
    if (!tenant) return { users: 0 };
    const now = asOf ?? Date.now();
    const members = await stores.members.allOfTenant(tenantId);
    const userIds = await asActivityFailure(() => idp.listTenantUserIds(tenantId));
    const memberIds = new Set(members.map((member) => member.userId));
    const pushes: [string, PushedMembership][] = [
      ...members.map((member): [string, PushedMembership] => [member.userId, pushedMembershipOf(tenant, member, now)]),
      ...userIds.filter((userId) => !memberIds.has(userId)).map((userId): [string, PushedMembership] => [userId, pushedMembershipOf(tenant, undefined, now)]),
    ];
    let skipped = 0;
    for (const [userId, membership] of pushes) {
      await asActivityFailure(() =>
        idp.pushMembership(userId, tenant.slug, membership).catch((error: unknown) => {
          if (!(error instanceof IdpError && error.status === 404 && memberIds.has(userId))) throw error;
          skipped += 1;
          log.warn('member not found in the identity provider; its claims were not pushed', { tenantId, userId });
        }),
      );
    }
    log.info('pushed claims', { tenantId, users: pushes.length - skipped, skipped });
    return { users: pushes.length - skipped };
  }

  /**
   * Makes the provider match the member's record as it is now, whatever the change that asked for it (so a repeat,
   * or a sync of an older change, converges to the same): an active or pending member is in the tenant's
   * organization with its claims pushed; an inactive one is out of it with membership status `inactive` and no
   * roles; a user that is no member (removed) is out of it with the tenant's value removed.
   */
  async function syncMemberNow(tenantId: string, userId: string, asOf: number): Promise<{ membership: PushedMembership['membership_status'] | 'removed' }> {
    const [tenant, snapshot, member] = await Promise.all([
      stores.tenants.find({ by: 'id', id: tenantId }),
      stores.tenants.snapshot({ by: 'id', id: tenantId }),
      stores.members.find(tenantId, userId),
    ]);
    if (!tenant || !snapshot) {
      // Members go with their tenant: there is no organization of theirs to match.
      log.warn('member sync for a tenant that does not exist', { tenantId, userId });
      return { membership: 'none' };
    }
    const ref: TenantRef = { tenantId, slug: tenant.slug, name: organizationNameOf(tenant) };
    const { organizationId } = await asActivityFailure(() => idp.ensureOrganization(ref));
    const inOrganization = member !== undefined && member.status !== 'inactive';
    if (inOrganization) await asActivityFailure(() => idp.ensureMembership(organizationId, userId));
    else await asActivityFailure(() => idp.removeMembership(organizationId, userId));
    const pushed = member ? pushedMembershipOf(snapshot, member, asOf) : null;
    await asActivityFailure(() => idp.pushMembership(userId, tenant.slug, pushed));
    log.info('synced member', { tenantId, userId, membership: pushed?.membership_status ?? 'removed' });
    return { membership: pushed?.membership_status ?? 'removed' };
  }

  /**
   * Expires the tenant's pending invitations whose time has come at `asOf` (invitation.expired, their links closed,
   * their pending members removed): answers the users whose membership the actor now takes out of the organization.
   * A repeat finds them expired already and does nothing.
   */
  async function expireDueInvitations(tenantId: string, asOf: number): Promise<string[]> {
    const invitations = stores.invitations;
    if (!invitations) return [];
    const removed: string[] = [];
    for (const { id, expiresAt } of await invitations.pendingExpiries(tenantId)) {
      if (expiresAt.getTime() > asOf) break;
      const written = await invitations.change({ by: 'id', id }, SYSTEM_ACTOR, [], planExpiry(new Date(asOf)));
      const sync = written?.memberSync;
      if (sync?.command.kind === 'syncMember') removed.push(sync.command.user_id);
      if (written?.result) log.info('invitation expired', { tenantId, invitationId: id });
    }
    return removed;
  }

  /**
   * Looks up the TXT record of each of the tenant's domains due at `asOf` and applies what it found; answers whether a
   * state changed (the actor then syncs the organization's domains itself, so the hand-offs those changes wrote are
   * done). A resolver that did not answer is logged and the domain tried again later.
   */
  async function checkDueDomains(tenantId: string, asOf: number): Promise<boolean> {
    const domains = stores.domains;
    if (!domains || !deps.domainChecks) return false;
    let changed = false;
    for (const { id, at } of await domains.nextChecks(tenantId)) {
      if (at.getTime() > asOf) break;
      const checked = await checkDomain({ domains }, deps.domainChecks, id, SYSTEM_ACTOR, new Date(asOf));
      if (!checked) continue;
      if (checked.unavailable) log.warn('DNS resolver did not answer; the domain is checked again later', { tenantId, domainId: id, code: checked.unavailable });
      metrics?.domainChecks.inc({ outcome: checked.unavailable ? 'resolver_unavailable' : checked.domain.state });
      if (checked.changed) changed = true;
      if (checked.handOffs.length > 0) await stores.outbox?.markDelivered(checked.handOffs.map((handOff) => handOff.id));
    }
    return changed;
  }

  /**
   * The steps of an invitation's send: the tenant's organization; the invitation's user, found by its e-mail or made
   * (a person may belong to several tenants); the invitation records the user and the user becomes a pending member,
   * whose side in the provider is synced at once (organization membership, pushed claims); then the e-mail with the
   * link of the invitation's current secret, once per secret (the invite ledger: a re-run of the same attempt
   * does not mail twice). An invitation no longer pending sends nothing. A failed attempt throws a non-retryable
   * failure typed by its kind with the step it stopped at; the actor retries it by its policy. Answers too when the
   * invitation sent expires.
   */
  async function invitationSteps(tenantId: string, invitationId: string): Promise<{ done: InvitationStepsDone; expiresAt?: number }> {
    const invitations = stores.invitations;
    if (!invitations) throw new Error('the invitations store is not configured in this worker');
    let step: InvitationStep = INVITATION_STEPS[0];
    try {
      const invitation = await invitations.find(invitationId);
      const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
      if (!invitation || invitation.tenantId !== tenantId || invitation.state !== 'pending' || !invitation.linkNonce || !tenant) return { done: { status: 'skipped' } };
      const ref: TenantRef = { tenantId, slug: tenant.slug, name: organizationNameOf(tenant) };
      const { organizationId } = await ensureOrganization(ref);
      step = 'user';
      const { userId } = await providerStep('user', () => asActivityFailure(() => idp.ensureInvitedUser(ref, invitation.email)));
      step = 'member';
      const source = invitation.invitedBy === PROVISIONING_INVITER ? 'provisioning' : 'invitation';
      const user = { userId, email: invitation.email, name: '' };
      const written = await invitations.change({ by: 'id', id: invitationId }, SYSTEM_ACTOR, [], planInvitedUser(user, source));
      if (!written || 'stale' in written.result) return { done: { status: 'skipped' } };
      const { nonce, sendEmail } = written.result;
      await providerStep('sync_member', () => syncMemberNow(tenantId, userId, Date.now()));
      // Synced here, in the send's order: the outbox's copy of the same sync is done.
      if (written.memberSync) await stores.outbox?.markDelivered([written.memberSync.id]);
      step = 'invite';
      const sent = await sendInvite(userId, tenantId, `invitation:${invitationId}:${nonce}`, { invitationId, nonce, sendEmail, organization: ref.slug });
      const done = { status: 'sent' as const, userId, organizationId, sendCount: invitation.sendCount, ...(sent.inviteUrl ? { inviteUrl: sent.inviteUrl } : {}) };
      return { done, expiresAt: invitation.expiresAt.getTime() };
    } catch (error) {
      const type = error instanceof ApplicationFailure ? (error.type ?? 'Error') : error instanceof Error ? error.name : 'Error';
      const message = error instanceof Error ? error.message : String(error);
      const stopped: InvitationStepsStopped = { step, message };
      throw ApplicationFailure.create({ type, message: `${step} step: ${message}`, nonRetryable: true, details: [stopped] });
    }
  }

  /**
   * An invitation's send and, once sent, its idp.invitation_sent event, in one local activity: the actor's two fewer
   * activations and history markers an invitation (docs/performance.md). Answers when the invitation expires, which
   * the actor puts in its timeline instead of reading the timeline again. An event that could not be appended is left
   * to the actor (`recorded: false`), which appends it retried until PostgreSQL answers, as it does a failure's.
   */
  async function runInvitationStepsRecorded(tenantId: string, invitationId: string): Promise<InvitationSendRecorded> {
    const { done, expiresAt } = await invitationSteps(tenantId, invitationId);
    if (done.status !== 'sent') return { done, recorded: false };
    const context = { userId: done.userId, organizationId: done.organizationId, sendCount: done.sendCount };
    try {
      await recordInvitationOutcome(tenantId, invitationId, { status: 'sent' }, sentInvitationOutcomeId(invitationId, done.sendCount), context);
      return { done, expiresAt, recorded: true };
    } catch (error) {
      log.warn('idp.invitation_sent not appended; the actor appends it', { tenantId, invitationId, error: error instanceof Error ? error.message : String(error) });
      return { done, expiresAt, recorded: false };
    }
  }

  /**
   * Appends idp.invitation_sent or idp.invitation_failed for one send of an invitation (`outcomeId` makes it
   * idempotent), with the provider's ids when known.
   */
  async function recordInvitationOutcome(
    tenantId: string,
    invitationId: string,
    outcome: { status: 'sent' } | { status: 'failed'; kind: string; step: InvitationStep; message: string },
    outcomeId: string,
    context: { userId?: string; organizationId?: string; sendCount?: number } = {},
  ): Promise<void> {
    const metadata: Record<string, unknown> & { outcome_id: string } = { outcome_id: outcomeId, invitation_id: invitationId };
    if (context.userId) metadata.user_id = context.userId;
    if (context.organizationId) metadata.organization_id = context.organizationId;
    if (context.sendCount !== undefined) metadata.send_count = context.sendCount;
    if (outcome.status === 'failed') Object.assign(metadata, { kind: outcome.kind, step: outcome.step, message: outcome.message });
    await stores.audit.appendOutcomeOnce(
      {
        action: outcome.status === 'sent' ? 'idp.invitation_sent' : 'idp.invitation_failed',
        tenant_id: tenantId,
        target_id: invitationId,
        target_type: 'invitation',
        metadata,
      },
      SYSTEM_ACTOR,
    );
    // Counted once appended: an append that failed is made again by the actor.
    metrics?.provisioningOutcomes.inc({
      command: 'invitation',
      outcome: outcome.status === 'sent' ? 'succeeded' : 'failed',
      step: outcome.status === 'failed' ? outcome.step : 'none',
      kind: outcome.status === 'failed' ? outcome.kind : 'none',
    });
  }

  /**
   * The invitation of the tenant's first IT_ADMIN (planProvisioningInvitation): made with its pending member, or the
   * pending one reused; `again` (an operator's resend) gives it a new link. No link when the administrator is a
   * member already, whose invite then opens no invitation. `memberSync`: the outbox row of the member's sync, when
   * the member was written.
   */
  async function provisioningInvitation(
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

  const ensureOrganization = (tenant: TenantRef) => providerStep('organization', () => asActivityFailure(() => idp.ensureOrganization(tenant)));
  const ensureUser = (tenant: TenantRef, email: string, name: string | undefined) =>
    providerStep('user', () => asActivityFailure(() => idp.ensureUser(tenant, email, name)));
  const ensureMembership = (organizationId: string, userId: string) =>
    providerStep('membership', () => asActivityFailure(() => idp.ensureMembership(organizationId, userId)));
  /**
   * Sends the invite once per provisioning run (`runKey`, see ProviderStepsRequest and InviteLedger): a re-run of a run
   * that sent answers `alreadySent` and no link, instead of mailing the administrator again.
   */
  const sendInvite = (userId: string, tenantId?: string, runKey?: string, link?: InviteLink): Promise<{ inviteUrl?: string; alreadySent?: true }> =>
    providerStep('invite', async () => {
      const ledger = stores.invites;
      if (ledger && runKey && (await patientlyWithLedger('read', () => ledger.wasSent(runKey)))) {
        log.info('invite already sent by this provisioning run; not sending it again', { tenantId, runKey });
        return { alreadySent: true };
      }
      const sent = await asActivityFailure(() => idp.sendInvite(userId, link));
      // The e-mail is out: from here on no failure may fail the attempt, as its retry would send the e-mail again.
      if (ledger && runKey && tenantId) {
        await patientlyWithLedger('record', () => ledger.recordSent(runKey, tenantId, userId)).catch((error: unknown) =>
          log.error('invite sent but not recorded in the invite ledger: a lost workflow task of this run would send it again', {
            tenantId,
            runKey,
            error: (error as Error).message,
          }),
        );
      }
      return sent;
    });
  const pushClaims = (tenantId: string, asOf?: number): Promise<{ users: number }> => providerStep('push_claims', () => pushClaimsToMembers(tenantId, asOf));

  return {
    async loadTenantForProvisioning(tenantId: string): Promise<TenantForProvisioning> {
      const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
      if (!tenant) throw ApplicationFailure.create({ type: 'tenant_not_found', message: `tenant ${tenantId} not found`, nonRetryable: true });
      return { tenantId: tenant.id, slug: tenant.slug, name: tenant.name, adminEmail: tenant.adminEmail, adminName: tenant.adminName };
    },

    /**
     * An operator's resend of the administrator's invite (see #resendInvite of the actor): its invitation gets a new
     * link (the one before stops working) and the e-mail goes out with it. Provisioning's invite is a step of
     * runProviderSteps.
     */
    /** The invite e-mail of one user, once per run key (the invite ledger); the step both sends go through. */
    sendInvite,
    async resendAdminInvite(tenantId: string, userId: string, asOf: number): Promise<{ inviteUrl?: string; alreadySent?: true }> {
      const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
      if (!tenant?.adminEmail) return sendInvite(userId, tenantId);
      const { link } = await provisioningInvitation(tenantId, { userId, email: tenant.adminEmail, name: tenant.adminName ?? '' }, true, asOf);
      return sendInvite(userId, tenantId, undefined, link ? { ...link, sendEmail: true, organization: tenant.slug } : undefined);
    },
    /** The tenant's claims pushed outside provisioning (a change of status, plan or products; the timeline). */
    pushTenantClaims: pushClaims,
    /** An invitation's send (the actor's sendInvitation command), one attempt, with its idp.invitation_sent event. */
    runInvitationStepsRecorded,
    /** One member's side in the provider made to match its record (the actor's syncMember command). */
    syncMember: (tenantId: string, userId: string, asOf?: number) => providerStep('sync_member', () => syncMemberNow(tenantId, userId, asOf ?? Date.now())),

    /**
     * The provider's steps of a provisioning, one after the other in one local activity: organization, user,
     * membership, invite, then the tenant's claims (so the user's first token carries them). Steps in `done` are not
     * run again. A failed attempt throws a non-retryable failure typed by its kind, naming its step in the message
     * (what the Temporal UI shows an operator) and carrying how far it got in its details, so the actor retries from
     * the step that failed on its own durable timer with that step's budget. One activity instead of five is four
     * fewer workflow activations and history markers per tenant created (issue #19).
     */
    async runProviderSteps(request: ProviderStepsRequest, done: ProviderStepsDone): Promise<ProviderStepsDone> {
      const progress = { ...done };
      const tenant: TenantRef = { tenantId: request.tenantId, slug: request.slug, name: request.organizationName };
      try {
        progress.organizationId ??= (await ensureOrganization(tenant)).organizationId;
        progress.userId ??= (await ensureUser(tenant, request.adminEmail, request.adminName)).userId;
        if (!progress.member) {
          // The administrator's invitation and its pending member (role IT_ADMIN) before the claims push below,
          // which then carries its roles.
          const admin = { userId: progress.userId, email: request.adminEmail, name: request.adminName ?? '' };
          const { link, memberSync } = await provisioningInvitation(request.tenantId, admin, false, request.asOf ?? Date.now());
          if (link) progress.invitation = link;
          if (memberSync !== undefined) progress.memberSync = memberSync;
          await ensureMembership(progress.organizationId, progress.userId);
          progress.member = true;
        }
        if (!progress.invited) {
          const link = progress.invitation ? { ...progress.invitation, sendEmail: true, organization: request.slug } : undefined;
          const { inviteUrl } = await sendInvite(progress.userId, request.tenantId, request.runKey, link);
          progress.invited = inviteUrl ? { inviteUrl } : {};
        }
        await pushClaims(request.tenantId);
        // The push synced every member as the store has it now, the administrator's pending one too: the outbox's
        // copy of that member's sync is done (else the relay wakes the actor minutes later to sync it again).
        if (progress.memberSync !== undefined) await stores.outbox?.markDelivered([progress.memberSync]);
        return progress;
      } catch (error) {
        // Typed as Temporal would type the failure of a step run as its own activity.
        const type = error instanceof ApplicationFailure ? (error.type ?? 'Error') : error instanceof Error ? error.name : 'Error';
        const message = error instanceof Error ? error.message : String(error);
        const stopped: ProviderStepsStopped = { step: nextProviderStep(progress), message, done: progress };
        throw ApplicationFailure.create({ type, message: `${stopped.step} step: ${message}`, nonRetryable: true, details: [stopped] });
      }
    },

    /**
     * Appends idp.invite_sent or idp.provision_failed. `outcomeId` makes it idempotent: an activity retried after
     * its insert committed does not append the event twice.
     */
    async recordProvisioningOutcome(
      tenantId: string,
      outcome: RecordedOutcome,
      outcomeId: string,
      resend = false,
      context: OutcomeContext = {},
    ): Promise<void> {
      const metadata: Record<string, unknown> = { outcome_id: outcomeId, resend };
      // The provider's ids lead from the tenant to GET /v1/users/{id}/memberships.
      if (context.userId) metadata.user_id = context.userId;
      if (context.organizationId) metadata.organization_id = context.organizationId;
      if (context.request) Object.assign(metadata, requestMetadata(context.request));
      if (outcome.status === 'failed') Object.assign(metadata, { kind: outcome.kind, step: outcome.step, message: outcome.message });
      metrics?.provisioningOutcomes.inc({
        command: resend ? 'resend' : 'provision',
        outcome: outcome.status,
        step: outcome.status === 'failed' ? outcome.step : 'none',
        kind: outcome.status === 'failed' ? outcome.kind : 'none',
      });
      await stores.audit.appendOutcomeOnce(
        {
          action: outcome.status === 'succeeded' ? 'idp.invite_sent' : 'idp.provision_failed',
          tenant_id: tenantId,
          target_id: tenantId,
          target_type: 'tenant',
          metadata: { ...metadata, outcome_id: outcomeId },
        },
        SYSTEM_ACTOR,
      );
    },

    /** The tenant's status and what is still to happen to it, soonest first (the actor sets its timer from it). */
    async loadTenantTimeline(tenantId: string): Promise<{ status: string | null; upcoming: ActorTimelineEvent[] }> {
      const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
      if (!tenant) return { status: null, upcoming: [] };
      const lifecycle = upcomingLifecycleEvents(tenant, (await stores.tenants.entitlementsOf(tenantId)) ?? [], reminderDays);
      const invitations = ((await stores.invitations?.pendingExpiries(tenantId)) ?? []).map(
        ({ id, expiresAt }): ActorTimelineEvent => ({ kind: 'invitation_expired', invitationId: id, at: expiresAt.getTime() }),
      );
      const domains = deps.domainChecks
        ? ((await stores.domains?.nextChecks(tenantId)) ?? []).map(({ id, at }): ActorTimelineEvent => ({ kind: 'domain_check', domainId: id, at: at.getTime() }))
        : [];
      return { status: tenant.status, upcoming: [...lifecycle, ...invitations, ...domains].sort((a, b) => a.at - b.at) };
    },

    /**
     * Applies the lifecycle events due at `asOf` (the workflow's time, so a test that skips time is judged by it):
     * idempotent, a repeat appends nothing (see planDueLifecycle).
     */
    async applyDueLifecycle(
      tenantId: string,
      asOf: number,
    ): Promise<{ applied: LifecycleEvent[]; claimsChanged: boolean; membersRemoved: string[]; domainsChanged: boolean }> {
      const changed = await stores.tenants.change(tenantId, SYSTEM_ACTOR, (tenant) => planDueLifecycle(tenant, new Date(asOf), reminderDays));
      const membersRemoved = await expireDueInvitations(tenantId, asOf);
      const domainsChanged = await checkDueDomains(tenantId, asOf);
      return { ...(changed?.result ?? { applied: [], claimsChanged: false }), membersRemoved, domainsChanged };
    },

    /** The tenant's organization's domains set to those it holds verified (the actor's syncDomains command). */
    async syncOrganizationDomains(tenantId: string): Promise<{ domains: number }> {
      const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
      if (!tenant || !stores.domains) return { domains: 0 };
      const names = await stores.domains.verifiedNames(tenantId);
      const ref: TenantRef = { tenantId, slug: tenant.slug, name: organizationNameOf(tenant) };
      await ensureOrganization(ref);
      await providerStep('domains', () => asActivityFailure(() => idp.setOrganizationDomains(ref, names)));
      log.info('synced organization domains', { tenantId, domains: names.length });
      return { domains: names.length };
    },

    /**
     * Appends idp.domain_sync_failed or idp.sso_sync_failed once per failing streak of a sync of the organization's
     * domains or of an SSO connection's identity provider (`outcomeId` names it).
     */
    async recordProviderSyncFailure(tenantId: string, what: 'domain' | 'sso' | 'directory', failure: { kind: string; message: string }, outcomeId: string, targetId?: string): Promise<void> {
      await stores.audit.appendOutcomeOnce(
        {
          action: `idp.${what}_sync_failed`,
          tenant_id: tenantId,
          target_id: targetId ?? tenantId,
          target_type: what === 'sso' ? 'sso_connection' : what === 'directory' ? 'directory_user' : 'tenant',
          metadata: { outcome_id: outcomeId, kind: failure.kind, message: failure.message },
        },
        SYSTEM_ACTOR,
      );
      // Counted once appended: an append that failed is made again by the actor.
      metrics?.providerSyncFailures.inc({ sync: what });
    },

    /**
     * A directory's SCIM user made to match in the provider and the tenant (the actor's syncDirectoryUser): linked,
     * once, to the account holding its e-mail when the tenant governs that account, or to a new one it makes (an
     * account it does not govern links nothing); its member decided by planDirectoryMember (only members the directory
     * made change); the account enabled or disabled as the SCIM user is only when the directory made it and the tenant
     * governs it now. A deleted SCIM user's member removed and the SCIM user forgotten. The member's side is synced at once.
     */
    async syncDirectoryUser(tenantId: string, directoryId: string, scimUserId: string): Promise<{ member: 'active' | 'inactive' | 'removed' | 'none' }> {
      const directoryUsers = stores.directoryUsers;
      const directory = await stores.directories?.find(directoryId);
      const user = await directoryUsers?.find(directoryId, scimUserId, true);
      const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
      if (!directoryUsers || !user || !tenant || !directory || directory.tenantId !== tenantId) return { member: 'none' };
      const governed = async (userId: string, madeHere: boolean) => {
        const account = await providerStep('find_user', () => asActivityFailure(() => idp.findAccount({ userId })));
        return account !== undefined && (await tenantGovernsAccount(stores, tenantId, account, madeHere));
      };
      let { userId, owned } = user;
      const email = emailOf(user);
      if (!userId) {
        if (user.deletedAt) {
          await directoryUsers.purge(directoryId, scimUserId);
          return { member: 'removed' };
        }
        if (!email) throw ApplicationFailure.create({ type: 'rejected', message: `SCIM user ${scimUserId} has no e-mail address`, nonRetryable: true });
        const ref: TenantRef = { tenantId, slug: tenant.slug, name: organizationNameOf(tenant) };
        const holder = await providerStep('find_user', () => asActivityFailure(() => idp.findAccount({ address: email })));
        // The API refused such a SCIM user; an account made since then is still not the directory's to take.
        if (holder && !(await tenantGovernsAccount(stores, tenantId, holder))) {
          log.warn('SCIM user not linked: its address is an account the tenant does not govern', { tenantId, directoryId, scimUserId });
          return { member: 'none' };
        }
        const made = await providerStep('user', () => asActivityFailure(() => idp.ensureDirectoryUser(ref, email, nameOf(user))));
        if (!made.created && made.userId !== holder?.userId && !(await governed(made.userId, false))) return { member: 'none' };
        await directoryUsers.recordUser(directoryId, scimUserId, made.userId, made.created);
        userId = made.userId;
        owned = made.created;
      }
      // The groups of a SCIM user still there: a deleted one's ask for nothing.
      const groupNames = user.deletedAt ? [] : ((await stores.directoryGroups?.namesOfMember(directoryId, scimUserId)) ?? []);
      const request = directoryMemberRequest(directory, user, userId, tenantSettingsOf(tenant.settings).default_role, groupNames);
      // Judged before the member changes: a leaver's removal takes the account's home tenant with it.
      const mayTouchAccount = owned && (await governed(userId, owned));
      const outcomeId = `no_active_admin:${directoryId}:${scimUserId}:${user.updatedAt.getTime()}`;
      const written = await changeDirectoryMember(stores, request, SYSTEM_ACTOR, outcomeId);
      const outcome = written?.result ?? { member: 'none' as const, noActiveAdmin: false };
      if (written?.handOffs.length) {
        await syncMemberNow(tenantId, userId, Date.now());
        await stores.outbox?.markDelivered(written.handOffs.map((h) => h.id));
      }
      const enabled = directoryAccountEnabled(request, mayTouchAccount, outcome);
      if (enabled !== undefined) await providerStep('user', () => asActivityFailure(() => idp.setUserEnabled(userId, enabled)));
      if (user.deletedAt) {
        await directoryUsers.purge(directoryId, scimUserId);
        return { member: 'removed' };
      }
      log.info('synced directory user', { tenantId, directoryId, scimUserId, userId, active: user.active });
      return { member: outcome.member };
    },

    /**
     * The SSO connection's identity provider made to match it (the actor's syncSso): made or updated and linked to the
     * tenant's organization, enabled while the connection is active; deleted when the connection is gone.
     */
    async syncSsoProvider(tenantId: string, connectionId: string): Promise<{ provider: 'put' | 'removed' }> {
      const connection = await stores.ssoConnections?.find(connectionId);
      const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
      if (!connection || !tenant) {
        await providerStep('sso', () => asActivityFailure(() => idp.removeSsoProvider(ssoAliasOf(connectionId))));
        return { provider: 'removed' };
      }
      const ref: TenantRef = { tenantId, slug: tenant.slug, name: organizationNameOf(tenant) };
      await ensureOrganization(ref);
      await providerStep('sso', () =>
        asActivityFailure(() =>
          idp.putSsoProvider(ref, {
            alias: connection.idpAlias,
            issuer: connection.issuer,
            authorizationUrl: connection.endpoints.authorizationEndpoint,
            tokenUrl: connection.endpoints.tokenEndpoint,
            jwksUrl: connection.endpoints.jwksUri,
            userInfoUrl: connection.endpoints.userinfoEndpoint,
            clientId: connection.clientId,
            clientSecret: connection.clientSecret,
            domains: connection.domains,
            enabled: connection.state === 'active',
          }),
        ),
      );
      log.info('synced SSO identity provider', { tenantId, connectionId, alias: connection.idpAlias, state: connection.state });
      return { provider: 'put' };
    },

    recordInvitationOutcome,

    /** Appends idp.member_sync_failed once per failing streak of one member's sync (`outcomeId` names it). */
    async recordMemberSyncFailure(
      tenantId: string,
      userId: string,
      failure: { kind: string; message: string; attempts: number },
      outcomeId: string,
    ): Promise<void> {
      await stores.audit.appendOutcomeOnce(
        {
          action: 'idp.member_sync_failed',
          tenant_id: tenantId,
          target_id: userId,
          target_type: 'member',
          metadata: { outcome_id: outcomeId, user_id: userId, kind: failure.kind, message: failure.message, attempts: failure.attempts },
        },
        SYSTEM_ACTOR,
      );
      metrics?.providerSyncFailures.inc({ sync: 'member' });
    },

    /** Appends idp.claims_push_failed once per failing streak (`outcomeId` names it). */
    async recordClaimsPushFailure(tenantId: string, failure: { kind: string; message: string; attempts: number }, outcomeId: string): Promise<void> {
      await stores.audit.appendOutcomeOnce(
        {
          action: 'idp.claims_push_failed',
          tenant_id: tenantId,
          target_id: tenantId,
          target_type: 'tenant',
          metadata: { outcome_id: outcomeId, kind: failure.kind, message: failure.message, attempts: failure.attempts },
        },
        SYSTEM_ACTOR,
      );
      metrics?.providerSyncFailures.inc({ sync: 'claims_push' });
    },
  };
}

export type TenantActorActivities = ReturnType<typeof createTenantActorActivities>;
