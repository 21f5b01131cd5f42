import { condition, workflowInfo } from '@temporalio/workflow';
import type { OutcomeContext } from '../../../activities/tenantActor/outcomeActivities.ts';
import type { OperatorRequest } from '../../../domain/tenantActor/tenantActorCommand.ts';
import type { ActorContext } from '../actorContext.ts';
import { failureKind, failureMessage, stoppedDetails } from '../activityFailure.ts';
import type { CommandHandlers } from '../commandHandlers.ts';
import {
  nextProviderStep,
  organizationNameOf,
  type ProviderStepsDone,
  type ProviderStepsRequest,
  type ProviderStepsStopped,
  type ProvisioningFailure,
  type ProvisioningOutcome,
  type RecordedOutcome,
} from '../../../domain/provisioning/provisioningVocabulary.ts';
import type { Syncs } from './syncs.ts';

/**
 * The tenant's IT_ADMIN provisioned in the identity provider (`provision`, once whatever the number of hand-offs),
 * provisioned again by an operator after a failure (`retryProvisioning`, which also retries the failed syncs), and
 * its invite sent again (`resendInvite`). Each ends in its outcome event (idp.invite_sent / idp.provision_failed).
 */
export class Provisioning {
  readonly #actor: ActorContext;
  readonly #syncs: Syncs;
  /**
   * The invite link of the provisioning that just succeeded, for the waiting tenant creation alone: a seven-day token
   * that sets the administrator's password. Never in `state`, so no query, continue-as-new input or later answer
   * carries it; forgotten once answered.
   */
  #inviteUrl: string | undefined;

  constructor(actor: ActorContext, syncs: Syncs) {
    this.#actor = actor;
    this.#syncs = syncs;
  }

  readonly handlers: Pick<CommandHandlers, 'provision' | 'retryProvisioning' | 'resendInvite'> = {
    // A hand-off repeated for any reason never provisions twice.
    provision: async () => {
      if (this.#actor.state.provisioning === 'idle') await this.#provision();
    },
    retryProvisioning: async (command) => {
      const { provisioning } = this.#actor.state;
      if (provisioning === 'failed' || provisioning === 'idle') await this.#provision(command);
      // The operator's one retry: also of the syncs that failed, those waiting for an operator above all.
      await this.#syncs.retryFailed();
    },
    resendInvite: (command) => this.#resendInvite(command),
  };

  /** The outcome a waiting provisionAndWait update answers with, once no `provision` is queued and provisioning ended. */
  async outcomeOnceProvisioned(): Promise<ProvisioningOutcome> {
    await condition(() => !this.#actor.queue.has('provision') && this.#outcome() !== undefined);
    const outcome = this.#outcome()!;
    this.#inviteUrl = undefined;
    return outcome;
  }

  /** Undefined while provisioning has not ended. */
  #outcome(): ProvisioningOutcome | undefined {
    const { state } = this.#actor;
    if (state.provisioning === 'succeeded') return this.#inviteUrl ? { status: 'succeeded', inviteUrl: this.#inviteUrl } : { status: 'succeeded' };
    if (state.provisioning === 'failed') return { status: 'failed', ...state.failure! };
    if (state.provisioning === 'not_requested') return { status: 'not_requested' };
    return undefined;
  }

  /** Provisions the tenant's IT_ADMIN and records the outcome; `request` says who asked, if an operator did. */
  async #provision(request?: OperatorRequest): Promise<void> {
    const { state, tenantId } = this.#actor;
    state.provisioning = 'running';
    state.runs += 1;
    try {
      const tenant = await this.#actor.stored('loadTenantForProvisioning', () => this.#actor.localStore.loadTenantForProvisioning(tenantId), ['tenant_not_found']);
      const { adminEmail } = tenant;
      if (!adminEmail) {
        state.provisioning = 'not_requested';
        return;
      }
      const runKey = this.#provisioningKey();
      const steps = { tenantId, slug: tenant.slug, organizationName: organizationNameOf(tenant), adminEmail, adminName: tenant.adminName ?? undefined, runKey, asOf: Date.now() };
      const ran = await this.#runProviderSteps(steps);
      if ('failure' in ran) {
        state.provisioning = 'failed';
        state.failure = ran.failure;
      } else {
        state.provisioning = 'succeeded';
        this.#inviteUrl = ran.inviteUrl;
        state.failure = undefined;
      }
    } catch (error) {
      // Reading the tenant failed (the provider's steps answer their own failure).
      state.provisioning = 'failed';
      state.failure = { kind: failureKind(error), step: 'load', message: failureMessage(error) };
    }
    // Recorded outside the steps' try: the outcome stands whatever recording it takes.
    const outcome: RecordedOutcome = state.provisioning === 'succeeded' ? { status: 'succeeded' } : { status: 'failed', ...state.failure! };
    const outcomeId = this.#provisioningKey();
    const context = this.#outcomeContext(request);
    await this.#actor.stored('recordProvisioningOutcome', () => this.#actor.localStore.recordProvisioningOutcome(tenantId, outcome, outcomeId, false, context));
  }

  /**
   * The key of the provisioning under way, for its invite (the ledger) and its outcome event alike: the same when a
   * lost workflow task has it redone after other commands, new with each retry (docs/decisions.md).
   */
  #provisioningKey(): string {
    return `${workflowInfo().firstExecutionRunId}:provision:${this.#actor.state.runs}`;
  }

  /**
   * The provider's steps in one local activity per attempt, each attempt resuming after the steps done. The policy's
   * budget and backoff count per step, as when each step was its own activity: an attempt that got further starts
   * them afresh. Answers the failure that ended provisioning, or the invite link once it succeeded.
   */
  async #runProviderSteps(request: ProviderStepsRequest): Promise<{ failure: ProvisioningFailure } | { inviteUrl?: string }> {
    const { state } = this.#actor;
    let done: ProviderStepsDone = {};
    let progressed = false;
    const attempt = async (): Promise<ProviderStepsDone> => {
      try {
        done = await this.#actor.localProviderSteps.runProviderSteps(request, done);
        return done;
      } catch (error) {
        // An attempt that stopped says how far it got; the activity failing otherwise (its timeout, the worker's
        // troubles) got no further than the attempt before.
        const reached = stoppedDetails<ProviderStepsStopped>(error)?.done ?? done;
        progressed = stepsDone(reached) > stepsDone(done);
        done = reached;
        throw error;
      } finally {
        state.organizationId = done.organizationId ?? state.organizationId;
        state.userId = done.userId ?? state.userId;
      }
    };
    try {
      const reached = await this.#actor.retriedByActor(attempt, () => progressed);
      return { inviteUrl: reached.invited?.inviteUrl };
    } catch (error) {
      // Without the attempt's details, the step it would have run.
      const stopped = stoppedDetails<ProviderStepsStopped>(error);
      return { failure: { kind: failureKind(error), step: stopped?.step ?? nextProviderStep(done), message: stopped?.message ?? failureMessage(error) } };
    }
  }

  /** Sends the invite again (provisions instead while that never succeeded) and records the outcome as a resend. */
  async #resendInvite(request: OperatorRequest): Promise<void> {
    const { state, tenantId } = this.#actor;
    if (state.provisioning !== 'succeeded' || !state.userId) return this.#provision(request);
    let outcome: RecordedOutcome;
    try {
      // A resend goes by e-mail; no request waits for its link, so the actor does not keep it.
      await this.#actor.idp.resendAdminInvite(tenantId, state.userId, Date.now());
      outcome = { status: 'succeeded' };
    } catch (error) {
      outcome = { status: 'failed', kind: failureKind(error), step: 'invite', message: failureMessage(error) };
    }
    const outcomeId = this.#actor.outcomeId('resend');
    const context = this.#outcomeContext(request);
    await this.#actor.stored('recordProvisioningOutcome', () => this.#actor.store.recordProvisioningOutcome(tenantId, outcome, outcomeId, true, context));
  }

  /** What an outcome event names besides the outcome: the provider's ids known so far, and who asked, if an operator did. */
  #outcomeContext(request: OperatorRequest | undefined): OutcomeContext {
    const { userId, organizationId } = this.#actor.state;
    return { ...(userId ? { userId } : {}), ...(organizationId ? { organizationId } : {}), ...(request ? { request } : {}) };
  }
}

/** How many of the provider's steps an attempt has done: more than the attempt before means it got further. */
function stepsDone(done: ProviderStepsDone): number {
  return [done.organizationId, done.userId, done.member, done.invited].filter(Boolean).length;
}
