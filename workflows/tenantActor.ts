import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { TenantActivities } from '../activities/tenantActivities.ts';
import {
  NON_RETRYABLE_FAILURE_KINDS,
  nextProviderStep,
  type ProviderStepsDone,
  type ProviderStepsRequest,
  type ProviderStepsStopped,
  type ProvisioningFailure,
  type ProvisioningOutcome,
  type ProvisioningStep,
  type RecordedOutcome,
  type TenantForProvisioning,
} from './provisioningVocabulary.ts';
import {
  actorStateQuery,
  provisionAndWaitUpdate,
  provisionSignal,
  pushClaimsSignal,
  resendInviteSignal,
  retryProvisioningSignal,
  type ActorCommand,
  type TenantActorInput,
  type TenantActorState,
} from './tenantActorMessages.ts';

/** Keeps each run's history small; a long-lived actor continues as new well before Temporal's own suggestion. */
const MAX_COMMANDS_PER_RUN = 200;
/**
 * The actor runs the tenant's timeline (timers for the trial and entitlement expiries) and retries failed claims
 * pushes. Histories recorded before carry no marker of it and replay the loop as it was.
 */
const LIFECYCLE_TIMERS = 'lifecycle-timers';
/** Backoff of a failing claims push: 5 s doubling, at most 10 minutes apart. */
const CLAIMS_PUSH_FIRST_RETRY_MS = 5_000;
const CLAIMS_PUSH_MAX_RETRY_MS = 10 * 60_000;
/**
 * The registry's own statements (the timeline, outcomes) are retried on a durable timer when their activity fails
 * for good, instead of the failure ending the actor's run. Histories recorded before replay as they ran.
 */
const STORE_CALLS_OUTLAST_FAILURES = 'store-calls-outlast-failures';
/** Backoff of such a statement: 1 s doubling, at most a minute apart. */
const STORE_RETRY_FIRST_MS = 1_000;
const STORE_RETRY_MAX_MS = 60_000;
/**
 * The provider's steps run as local activities are tried once each and retried by the actor on durable timers, so
 * the retry budget is counted in the history: a local activity's own retries, held in the worker, could end before
 * their budget when the worker evicted the actor while they ran. Histories recorded before replay as they ran.
 */
const PROVIDER_STEPS_RETRIED_BY_ACTOR = 'provider-steps-retried-by-actor';
/**
 * The provider's steps run as one local activity (runProviderSteps) that reports how far it got: four fewer
 * activations per provisioning. Histories recorded before replay their five activities.
 */
const PROVIDER_STEPS_IN_ONE_ACTIVITY = 'provider-steps-in-one-activity';

/**
 * One tenant's actor: its state, its queue of commands and what each command does. Handlers only enqueue; `run`
 * takes the commands one at a time, in the order they arrived, so every identity-provider side effect of a tenant
 * happens in sequence.
 */
export class TenantActor {
  readonly #input: TenantActorInput;
  readonly state: TenantActorState;
  readonly #queue: ActorCommand[];
  #handled = 0;
  /** The timeline must be read again: at the start of a run and after anything that may have moved it. */
  #timelineStale = true;
  /**
   * The invite link of the provisioning that just succeeded, for the waiting tenant creation alone: a seven-day token
   * that sets the administrator's password. Never in `state`, so no query, continue-as-new input or later answer
   * carries it; forgotten once answered.
   */
  #inviteUrl: string | undefined;
  readonly #idp: TenantActivities;
  readonly #store: TenantActivities;
  readonly #localIdp: TenantActivities;
  readonly #localStore: TenantActivities;
  readonly #localIdpOnce: TenantActivities;
  readonly #localProviderSteps: TenantActivities;

  constructor(input: TenantActorInput) {
    this.#input = input;
    // State carried over from before the link left it: drop the link.
    const { inviteUrl: _forgotten, ...state } = (input.state ?? { provisioning: 'idle', runs: 0 }) as TenantActorState & { inviteUrl?: string };
    this.state = state;
    this.#queue = [...(input.pending ?? [])];
    const idpRetry = {
      initialInterval: input.retry.initialIntervalMs,
      backoffCoefficient: input.retry.backoffCoefficient,
      maximumInterval: input.retry.maximumIntervalMs,
      maximumAttempts: input.retry.maximumAttempts,
      nonRetryableErrorTypes: NON_RETRYABLE_FAILURE_KINDS,
    };
    // The registry's own database: retried until it answers, an outcome must never be dropped.
    const storeRetry = { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: ['tenant_not_found'] };
    this.#idp = proxyActivities<TenantActivities>({ startToCloseTimeout: '30 seconds', retry: idpRetry });
    this.#store = proxyActivities<TenantActivities>({ startToCloseTimeout: '30 seconds', retry: storeRetry });
    // The same activities with the same timeouts and retries, as local activities (input.localProvisioningSteps).
    this.#localIdp = proxyLocalActivities<TenantActivities>({ startToCloseTimeout: '30 seconds', retry: idpRetry });
    this.#localStore = proxyLocalActivities<TenantActivities>({ startToCloseTimeout: '30 seconds', retry: storeRetry });
    this.#localIdpOnce = proxyLocalActivities<TenantActivities>({ startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 1 } });
    // The five provider steps in one attempt: each keeps the 30 s it had as its own activity (the invite's ledger may
    // wait 20 s for PostgreSQL alone, and an attempt cut short after its e-mail would send it again).
    this.#localProviderSteps = proxyLocalActivities<TenantActivities>({ startToCloseTimeout: '150 seconds', retry: { maximumAttempts: 1 } });
  }

  /** The outcome a waiting provisionAndWait update answers with; undefined while provisioning has not ended. */
  outcome(): ProvisioningOutcome | undefined {
    const { state } = this;
    if (state.provisioning === 'succeeded') return this.#inviteUrl ? { status: 'succeeded', inviteUrl: this.#inviteUrl } : { status: 'succeeded' };
    if (state.provisioning === 'failed') return { status: 'failed', ...state.failure! };
    if (state.provisioning === 'not_requested') return { status: 'not_requested' };
    return undefined;
  }

  registerHandlers(): void {
    const enqueue = (command: ActorCommand) => this.#queue.push(command);
    setHandler(provisionSignal, () => void enqueue('provision'));
    setHandler(provisionAndWaitUpdate, async () => {
      enqueue('provision');
      await condition(() => !this.#queue.includes('provision') && this.outcome() !== undefined);
      const outcome = this.outcome()!;
      this.#inviteUrl = undefined;
      return outcome;
    });
    const operator = (command: ActorCommand) => (input?: { requested_by?: string }) => {
      if (input?.requested_by) this.state.requestedBy = input.requested_by;
      enqueue(command);
    };
    setHandler(retryProvisioningSignal, operator('retryProvisioning'));
    setHandler(resendInviteSignal, operator('resendInvite'));
    setHandler(pushClaimsSignal, () => void enqueue('pushClaims'));
    setHandler(actorStateQuery, () => this.state);
  }

  /** Takes commands until the run has handled enough, then continues as new with its state and pending commands. */
  async run(): Promise<void> {
    for (;;) {
      const timers = patched(LIFECYCLE_TIMERS);
      if (timers && this.#timelineStale) {
        await this.#readTimeline();
        // An archived tenant's actor finishes what is pending and completes; a later command starts a new one.
        if (this.state.timeline?.status === 'archived' && this.#queue.length === 0 && !this.state.claimsPush) {
          await condition(allHandlersFinished);
          return;
        }
      }
      const wakeAt = timers ? this.#nextWakeAt() : undefined;
      const ready = () => this.#queue.length > 0 || this.#shouldContinueAsNew();
      if (wakeAt === undefined) await condition(ready);
      else if (!(await condition(ready, Math.max(1, wakeAt - Date.now())))) {
        await this.#onTimer();
        continue;
      }
      // Only with an empty queue: a waiting provisionAndWait update must see its command handled first.
      if (this.#queue.length === 0) {
        await condition(allHandlersFinished);
        return continueAsNew<(input: TenantActorInput) => Promise<void>>({ ...this.#input, state: this.state, pending: this.#queue });
      }
      const command = this.#queue.shift()!;
      this.#handled += 1;
      switch (command) {
        case 'provision':
          // A hand-off repeated for any reason never provisions twice.
          if (this.state.provisioning === 'idle') await this.#provision();
          break;
        case 'retryProvisioning':
          if (this.state.provisioning === 'failed' || this.state.provisioning === 'idle') await this.#provision();
          break;
        case 'resendInvite':
          await this.#resendInvite();
          break;
        case 'pushClaims':
          // Queued pushes collapse into one: each push sends the bundle as it is now.
          while (this.#queue[0] === 'pushClaims') this.#queue.shift();
          if (timers) {
            // What changed the claims may have moved the timeline too (a new trial end, a new expiry).
            this.#timelineStale = true;
            await this.#pushClaimsDurably();
          } else {
            await this.#pushClaimsSafely();
          }
          break;
      }
      if (timers && command !== 'pushClaims') this.#timelineStale = true;
    }
  }

  async #readTimeline(): Promise<void> {
    this.#timelineStale = false;
    // Local activities: no round trip through the server ahead of the command that woke the actor.
    const { status, upcoming } = await this.#stored('loadTenantTimeline', () => this.#localStore.loadTenantTimeline(this.#input.tenantId));
    this.state.timeline = {
      status,
      upcoming: upcoming.map((e) => ({ kind: e.kind, at: new Date(e.at).toISOString(), ...(e.kind === 'entitlement_expired' ? { product: e.product } : {}) })),
    };
  }

  /** The soonest of the next lifecycle event and the next retry of a failing claims push. */
  #nextWakeAt(): number | undefined {
    const times = (this.state.timeline?.upcoming ?? []).map((e) => Date.parse(e.at));
    if (this.state.claimsPush) times.push(Date.parse(this.state.claimsPush.retryAt));
    return times.length ? Math.min(...times) : undefined;
  }

  /** A timer fired: retry a failing push when its time came, apply the lifecycle events now due, push what they changed. */
  async #onTimer(): Promise<void> {
    const now = Date.now();
    this.#timelineStale = true;
    const retryAt = this.state.claimsPush && Date.parse(this.state.claimsPush.retryAt);
    if (retryAt !== undefined && retryAt <= now) await this.#pushClaimsDurably();
    if (!(this.state.timeline?.upcoming ?? []).some((e) => Date.parse(e.at) <= now)) return;
    const { claimsChanged } = await this.#stored('applyDueLifecycle', () => this.#localStore.applyDueLifecycle(this.#input.tenantId, now));
    if (claimsChanged) await this.#pushClaimsDurably();
  }

  /**
   * Pushes the claims as of now; a failure is kept in the state with the time of the next try (backoff), and the
   * first failure of a streak is appended to the audit log as idp.claims_push_failed. Success clears it.
   */
  async #pushClaimsDurably(): Promise<void> {
    const tenantId = this.#input.tenantId;
    try {
      await this.#idp.pushTenantClaims(tenantId, Date.now());
      this.state.claimsPush = undefined;
    } catch (error) {
      const attempts = (this.state.claimsPush?.attempts ?? 0) + 1;
      const delay = Math.min(CLAIMS_PUSH_MAX_RETRY_MS, CLAIMS_PUSH_FIRST_RETRY_MS * 2 ** (attempts - 1));
      const failure = { kind: failureKind(error), message: failureMessage(error), attempts };
      this.state.claimsPush = { attempts, kind: failure.kind, lastError: failure.message, retryAt: new Date(Date.now() + delay).toISOString() };
      if (attempts === 1) {
        const outcomeId = this.#outcomeId('claims-push');
        await this.#stored('recordClaimsPushFailure', () => this.#localStore.recordClaimsPushFailure(tenantId, failure, outcomeId));
      }
    }
  }

  /** What an outcome event names besides the outcome: the provider's ids known so far, and who asked (then forgotten). */
  #outcomeContext(): { userId?: string; organizationId?: string; requestedBy?: string } {
    const { userId, organizationId, requestedBy } = this.state;
    this.state.requestedBy = undefined;
    return { ...(userId ? { userId } : {}), ...(organizationId ? { organizationId } : {}), ...(requestedBy ? { requestedBy } : {}) };
  }

  #shouldContinueAsNew(): boolean {
    return this.#handled >= (this.#input.maxCommandsPerRun ?? MAX_COMMANDS_PER_RUN) || workflowInfo().continueAsNewSuggested;
  }

  #outcomeId(what: string): string {
    return `${workflowInfo().runId}:${this.#handled}:${what}`;
  }

  async #provision(): Promise<void> {
    const { state } = this;
    state.provisioning = 'running';
    state.runs += 1;
    let step: ProvisioningStep = 'load';
    // Decided by the actor's input, so a history replays the way it ran: actors started before this option existed
    // run (and replay) their provisioning as regular activities.
    const local = this.#input.localProvisioningSteps === true;
    const db = local ? this.#localStore : this.#store;
    const tenantId = this.#input.tenantId;
    try {
      const tenant = await this.#stored('loadTenantForProvisioning', () => db.loadTenantForProvisioning(tenantId), ['tenant_not_found']);
      const { adminEmail } = tenant;
      if (!adminEmail) {
        state.provisioning = 'not_requested';
        return;
      }
      // Organization names are unique in the provider while tenant names are not: the slug disambiguates.
      const organizationName = `${tenant.name} (${tenant.slug})`;
      if (local && patched(PROVIDER_STEPS_RETRIED_BY_ACTOR) && patched(PROVIDER_STEPS_IN_ONE_ACTIVITY)) {
        const request = { tenantId, slug: tenant.slug, organizationName, adminEmail, adminName: tenant.adminName ?? undefined, runKey: this.#outcomeId('provision') };
        const ran = await this.#runProviderSteps(request);
        if ('failure' in ran) {
          state.provisioning = 'failed';
          state.failure = ran.failure;
        } else {
          state.provisioning = 'succeeded';
          this.#inviteUrl = ran.inviteUrl;
          state.failure = undefined;
        }
      } else {
        const { inviteUrl } = await this.#providerStepsOneByOne(local, tenant, organizationName, adminEmail, (at) => (step = at));
        state.provisioning = 'succeeded';
        this.#inviteUrl = inviteUrl;
        state.failure = undefined;
      }
    } catch (error) {
      state.provisioning = 'failed';
      state.failure = { kind: failureKind(error), step, message: failureMessage(error) };
    }
    // Recorded outside the steps' try: the outcome stands whatever recording it takes.
    const outcome: RecordedOutcome = state.provisioning === 'succeeded' ? { status: 'succeeded' } : { status: 'failed', ...state.failure! };
    const outcomeId = this.#outcomeId('provision');
    const context = this.#outcomeContext();
    await this.#stored('recordProvisioningOutcome', () => db.recordProvisioningOutcome(tenantId, outcome, outcomeId, false, context));
  }

  /**
   * The provider's steps in one local activity per attempt, each attempt resuming after the steps done. The policy's
   * budget and backoff count per step, as when each step was its own activity: an attempt that got further starts
   * them afresh. Answers the failure that ended provisioning, or the invite link once it succeeded.
   */
  async #runProviderSteps(request: ProviderStepsRequest): Promise<{ failure: ProvisioningFailure } | { inviteUrl?: string }> {
    const { state } = this;
    let done: ProviderStepsDone = {};
    let progressed = false;
    const attempt = async (): Promise<ProviderStepsDone> => {
      try {
        done = await this.#localProviderSteps.runProviderSteps(request, done);
        return done;
      } catch (error) {
        // An attempt that stopped says how far it got; the activity failing otherwise (its timeout, the worker's
        // troubles) got no further than the attempt before.
        const reached = providerStepsStopped(error)?.done ?? done;
        progressed = stepsDone(reached) > stepsDone(done);
        done = reached;
        throw error;
      } finally {
        state.organizationId = done.organizationId ?? state.organizationId;
        state.userId = done.userId ?? state.userId;
      }
    };
    try {
      const reached = await this.#retriedByActor(attempt, () => progressed);
      return { inviteUrl: reached.invited?.inviteUrl };
    } catch (error) {
      // Without the attempt's details, the step it would have run.
      const stopped = providerStepsStopped(error);
      return { failure: { kind: failureKind(error), step: stopped?.step ?? nextProviderStep(done), message: stopped?.message ?? failureMessage(error) } };
    }
  }

  /** The provider's steps as one activity each (histories from before PROVIDER_STEPS_IN_ONE_ACTIVITY replay so). */
  async #providerStepsOneByOne(
    local: boolean,
    tenant: TenantForProvisioning,
    organizationName: string,
    adminEmail: string,
    at: (step: ProvisioningStep) => void,
  ): Promise<{ inviteUrl?: string }> {
    const { state } = this;
    const tenantId = this.#input.tenantId;
    const steps = this.#providerSteps(local);
    const ref = { tenantId: tenant.tenantId, slug: tenant.slug, name: organizationName };
    at('organization');
    const { organizationId } = await steps((a) => a.ensureOrganization(ref));
    state.organizationId = organizationId;
    at('user');
    const { userId } = await steps((a) => a.ensureUser(ref, adminEmail, tenant.adminName ?? undefined));
    state.userId = userId;
    at('membership');
    await steps((a) => a.ensureMembership(organizationId, userId));
    at('invite');
    const { inviteUrl } = await steps((a) => a.sendInvite(userId, tenantId, this.#outcomeId('provision')));
    // Claims first, so the user's first token already carries the tenant's bundle.
    await steps((a) => a.pushTenantClaims(tenantId));
    return { inviteUrl };
  }

  async #resendInvite(): Promise<void> {
    const { state } = this;
    if (state.provisioning !== 'succeeded' || !state.userId) return this.#provision();
    const tenantId = this.#input.tenantId;
    let outcome: RecordedOutcome;
    try {
      // A resend goes by e-mail; no request waits for its link, so the actor does not keep it.
      await this.#idp.sendInvite(state.userId);
      outcome = { status: 'succeeded' };
    } catch (error) {
      outcome = { status: 'failed', kind: failureKind(error), step: 'invite', message: failureMessage(error) };
    }
    const outcomeId = this.#outcomeId('resend');
    const context = this.#outcomeContext();
    await this.#stored('recordProvisioningOutcome', () => this.#store.recordProvisioningOutcome(tenantId, outcome, outcomeId, true, context));
  }

  /**
   * How provisioning calls the provider: regular activities (actors started before local steps existed), local
   * activities retrying in the worker (histories from before PROVIDER_STEPS_RETRIED_BY_ACTOR), or local activities
   * tried once each and retried here.
   */
  #providerSteps(local: boolean): <T>(call: (steps: TenantActivities) => Promise<T>) => Promise<T> {
    if (!local) return (call) => call(this.#idp);
    if (!patched(PROVIDER_STEPS_RETRIED_BY_ACTOR)) return (call) => call(this.#localIdp);
    return (call) => this.#retriedByActor(() => call(this.#localIdpOnce));
  }

  /**
   * The provisioning retry policy applied by the actor: a failure of a kind that needs an operator, or the last
   * allowed attempt's, ends the step; any other is tried again after the policy's backoff, on a durable timer.
   * `startsAfresh`, asked after a failed attempt, says it got past a step: the next step gets the whole budget.
   */
  async #retriedByActor<T>(attempt: () => Promise<T>, startsAfresh: () => boolean = () => false): Promise<T> {
    const { initialIntervalMs, backoffCoefficient, maximumIntervalMs, maximumAttempts } = this.#input.retry;
    let made = 0;
    let delay = initialIntervalMs;
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        if (startsAfresh()) {
          made = 0;
          delay = initialIntervalMs;
        }
        made += 1;
        // A maximum of 0 means no limit, as in Temporal's own retry policy.
        const lastAttempt = maximumAttempts > 0 && made >= maximumAttempts;
        if (lastAttempt || NON_RETRYABLE_FAILURE_KINDS.includes(failureKind(error))) throw error;
        await sleep(delay);
        delay = Math.min(maximumIntervalMs, delay * backoffCoefficient);
      }
    }
  }

  /**
   * A statement of the registry's own, run until it succeeds: its activity already retries, but should it still fail
   * (a local activity ended by the worker's own troubles while PostgreSQL was down), the failure would otherwise end
   * the actor's run, and with it the tenant's state, so that the next command started a new actor that provisioned
   * again. `finalTypes` are answers, not failures (a tenant that does not exist).
   */
  async #stored<T>(what: string, call: () => Promise<T>, finalTypes: string[] = []): Promise<T> {
    if (!patched(STORE_CALLS_OUTLAST_FAILURES)) return call();
    for (let delay = STORE_RETRY_FIRST_MS; ; delay = Math.min(STORE_RETRY_MAX_MS, delay * 2)) {
      try {
        return await call();
      } catch (error) {
        // A local activity's failure arrives as its ApplicationFailure itself, a regular one's wrapped in ActivityFailure.
        const failedCall = error instanceof ActivityFailure || error instanceof ApplicationFailure;
        if (!failedCall || finalTypes.includes(failureKind(error))) throw error;
        log.warn('registry statement failed; trying again', { what, retryInMs: delay, error: failureMessage(error) });
        await sleep(delay);
      }
    }
  }

  async #pushClaimsSafely(): Promise<void> {
    try {
      await this.#idp.pushTenantClaims(this.#input.tenantId);
    } catch {
      // The provider refused (e.g. unauthorized): the next claims change or an operator retry pushes again.
    }
  }
}

/** How many of the provider's steps an attempt has done: more than the attempt before means it got further. */
function stepsDone(done: ProviderStepsDone): number {
  return [done.organizationId, done.userId, done.member, done.invited].filter(Boolean).length;
}

/** The details of a failed attempt at the provider's steps; undefined for any other failure. */
function providerStepsStopped(error: unknown): ProviderStepsStopped | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof ApplicationFailure ? (cause.details?.[0] as ProviderStepsStopped | undefined) : undefined;
}

function failureKind(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type) return cause.type;
  return 'unavailable';
}

function failureMessage(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof Error ? cause.message : String(error);
}
