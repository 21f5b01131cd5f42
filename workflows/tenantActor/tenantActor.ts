import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { OutcomeContext, TenantActorActivities } from '../../activities/tenantActor/tenantActorActivities.ts';
import { attemptsExhausted, retryDelayMs, type RetryPolicy } from '../../domain/retryPolicy.ts';
import { commandOf, TENANT_ACTOR_COMMAND_KINDS, type OperatorRequest, type TenantActorCommand } from '../../domain/tenantActor/tenantActorCommand.ts';
import { temporalRetry } from '../temporalRetry.ts';
import { inCommandSpan, inFollowUpSpan, inRootSpan, rememberRequest } from './commandSpan.ts';
import {
  NON_RETRYABLE_FAILURE_KINDS,
  nextProviderStep,
  organizationNameOf,
  sentInvitationOutcomeId,
  type InvitationSendOutcome,
  type InvitationSendRecorded,
  type InvitationStepsDone,
  type InvitationStepsStopped,
  type ProviderStepsDone,
  type ProviderStepsRequest,
  type ProviderStepsStopped,
  type ProvisioningFailure,
  type ProvisioningOutcome,
  type RecordedOutcome,
} from '../../domain/provisioning/provisioningVocabulary.ts';
import {
  actorStateQuery,
  commandSignal,
  provisionAndWaitUpdate,
  sendInvitationAndWaitUpdate,
  type DirectorySyncFailure,
  type MemberSyncFailure,
  type TenantActorInput,
  type TenantActorState,
} from './tenantActorMessages.ts';

/** Keeps each run's history small; a long-lived actor continues as new well before Temporal's own suggestion. */
const MAX_COMMANDS_PER_RUN = 200;
/**
 * A run whose history has reached this many events continues as new once nothing is queued. A worker that no longer
 * holds an actor (it caches WORKER_MAX_CACHED_WORKFLOWS) replays the whole run before the command that woke it, on
 * the one workflow thread every actor of the worker shares: a short run keeps that replay short (docs/performance.md).
 */
const HISTORY_EVENTS_PER_RUN = 100;
/**
 * Backoff of a failing claims push, retried until it succeeds, and of a member sync failing for an unavailable
 * provider: 5 s doubling, at most 10 minutes apart.
 */
const PUSH_RETRY: RetryPolicy = { initialIntervalMs: 5_000, backoffCoefficient: 2, maximumIntervalMs: 10 * 60_000 };
/**
 * The registry's own statements, retried until the database answers: 1 s doubling, at most a minute apart, both by
 * their activity and, should that still fail, by the actor on a durable timer (see #stored).
 */
const STORE_RETRY: RetryPolicy = { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 60_000 };

/**
 * One tenant's actor: its state, its queue of commands and what each command does. Handlers only enqueue; `run`
 * takes the commands one at a time, in the order they arrived, so every identity-provider side effect of a tenant
 * happens in sequence. The actor runs the tenant's timeline too (timers for the trial and entitlement expiries) and
 * retries failed claims pushes and member syncs.
 */
export class TenantActor {
  readonly #input: TenantActorInput;
  readonly state: TenantActorState;
  readonly #queue: TenantActorCommand[];
  #handled = 0;
  /** The timeline must be read again before the actor waits: at the start of a run and after anything that may have moved it. */
  #timelineStale = true;
  /** The command being handled put what it moved in the timeline itself (an invitation's send); no read is needed for it. */
  #timelineKept = false;
  /**
   * The invite link of the provisioning that just succeeded, for the waiting tenant creation alone: a seven-day token
   * that sets the administrator's password. Never in `state`, so no query, continue-as-new input or later answer
   * carries it; forgotten once answered.
   */
  #inviteUrl: string | undefined;
  /**
   * The outcomes of invitation sends a sendInvitationAndWait update waits for, by the command it enqueued; like
   * #inviteUrl, never in `state`, and forgotten once answered.
   */
  readonly #invitationOutcomes = new Map<TenantActorCommand, InvitationSendOutcome>();
  readonly #awaitedSends = new Set<TenantActorCommand>();
  /** The provider outside provisioning (claims pushes, resends), as regular activities with the provisioning retry policy. */
  readonly #idp: TenantActorActivities;
  /** The registry's statements of a resend, as regular activities. */
  readonly #store: TenantActorActivities;
  /** The registry's statements of provisioning and the timeline, as local activities. */
  readonly #localStore: TenantActorActivities;
  /** The provider's steps of provisioning: one local activity an attempt, retried by the actor (#runProviderSteps). */
  readonly #localProviderSteps: TenantActorActivities;

  constructor(input: TenantActorInput) {
    this.#input = input;
    this.state = input.state ?? { provisioning: 'idle', runs: 0 };
    this.#queue = [...(input.pending ?? [])];
    const idpRetry = temporalRetry(input.retry, NON_RETRYABLE_FAILURE_KINDS);
    // The registry's own database: retried until it answers, an outcome must never be dropped.
    const storeRetry = temporalRetry(STORE_RETRY, ['tenant_not_found']);
    this.#idp = proxyActivities<TenantActorActivities>({ startToCloseTimeout: '30 seconds', retry: idpRetry });
    this.#store = proxyActivities<TenantActorActivities>({ startToCloseTimeout: '30 seconds', retry: storeRetry });
    this.#localStore = proxyLocalActivities<TenantActorActivities>({ startToCloseTimeout: '30 seconds', retry: storeRetry });
    // The five provider steps in one attempt: each keeps the 30 s it had as its own activity (the invite's ledger may
    // wait 20 s for PostgreSQL alone, and an attempt cut short after its e-mail would send it again).
    this.#localProviderSteps = proxyLocalActivities<TenantActorActivities>({ startToCloseTimeout: '150 seconds', retry: { maximumAttempts: 1 } });
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
    const enqueue = (command: TenantActorCommand) => {
      // The handler's span (the request's), the parent of the command's when tracing is on.
      rememberRequest(command);
      this.#queue.push(command);
    };
    // Every command travels as the signal named by its kind; what is no command of that kind is dropped.
    for (const kind of TENANT_ACTOR_COMMAND_KINDS) {
      setHandler(commandSignal(kind), (input) => {
        const command = commandOf(kind, input);
        if (command) enqueue(command);
      });
    }
    setHandler(provisionAndWaitUpdate, async () => {
      enqueue({ kind: 'provision' });
      await condition(() => !this.#queue.some((command) => command.kind === 'provision') && this.outcome() !== undefined);
      const outcome = this.outcome()!;
      this.#inviteUrl = undefined;
      return outcome;
    });
    setHandler(sendInvitationAndWaitUpdate, async (input) => {
      const command = commandOf('sendInvitation', input);
      if (!command) return { status: 'skipped' };
      this.#awaitedSends.add(command);
      enqueue(command);
      await condition(() => this.#invitationOutcomes.has(command));
      const outcome = this.#invitationOutcomes.get(command)!;
      this.#invitationOutcomes.delete(command);
      return outcome;
    });
    setHandler(actorStateQuery, () => this.state);
  }

  /** Takes commands until the run has handled enough, then continues as new with its state and pending commands. */
  async run(): Promise<void> {
    // The command that made the timeline stale: the read that follows is traced under it (commandSpan.ts).
    let staleAfter: TenantActorCommand | undefined;
    for (;;) {
      // A short run about to continue as new leaves the timeline to the next run, which starts by reading it.
      const leaving = this.#queue.length === 0 && this.#shouldContinueAsNew();
      // Read once the queue is empty: only the wait below uses it, and each read is a local activity.
      if (this.#timelineStale && !leaving && this.#queue.length === 0) {
        await inFollowUpSpan(staleAfter, 'readTimeline', () => this.#readTimeline());
        // An archived tenant's actor finishes what is pending and completes; a later command starts a new one.
        if (this.state.timeline?.status === 'archived' && this.#queue.length === 0 && !this.state.claimsPush && !this.state.memberSync && !this.state.directorySync) {
          await condition(allHandlersFinished);
          return;
        }
      }
      const wakeAt = this.#nextWakeAt();
      // With nothing queued the history grows only by what wakes the loop, so a long idle run is `leaving` already.
      const ready = () => this.#queue.length > 0 || leaving || this.#commandsSpent();
      if (wakeAt === undefined) await condition(ready);
      else if (!(await condition(ready, Math.max(1, wakeAt - Date.now())))) {
        staleAfter = undefined;
        await inRootSpan('onTimer', () => this.#onTimer());
        continue;
      }
      // Only with an empty queue: a waiting provisionAndWait update must see its command handled first.
      if (this.#queue.length === 0) {
        await condition(allHandlersFinished);
        return continueAsNew<(input: TenantActorInput) => Promise<void>>({ ...this.#input, state: this.state, pending: this.#queue });
      }
      const command = this.#queue.shift()!;
      this.#handled += 1;
      this.#timelineKept = false;
      await inCommandSpan(command, () => this.#handle(command));
      // What a command did may have moved the timeline (a new trial end, a new expiry), unless it kept it itself.
      if (!this.#timelineKept) {
        this.#timelineStale = true;
        staleAfter = command;
      }
    }
  }

  async #handle(command: TenantActorCommand): Promise<void> {
    switch (command.kind) {
      case 'provision':
        // A hand-off repeated for any reason never provisions twice.
        if (this.state.provisioning === 'idle') await this.#provision();
        return;
      case 'retryProvisioning':
        if (this.state.provisioning === 'failed' || this.state.provisioning === 'idle') await this.#provision(command);
        // The operator's one retry: also of the member syncs that failed, those waiting for an operator above all.
        for (const userId of Object.keys(this.state.memberSync ?? {})) await this.#syncMemberDurably(userId);
        for (const [scimUserId, failure] of Object.entries(this.state.directorySync ?? {})) await this.#syncDirectoryUserDurably(failure.directoryId, scimUserId);
        return;
      case 'resendInvite':
        return this.#resendInvite(command);
      case 'pushClaims':
        // Queued pushes collapse into one: each push sends the bundle as it is now.
        while (this.#queue[0]?.kind === 'pushClaims') this.#queue.shift();
        return this.#pushClaimsDurably();
      case 'sendInvitation': {
        const outcome = await this.#sendInvitation(command.invitation_id);
        if (this.#awaitedSends.delete(command)) this.#invitationOutcomes.set(command, outcome);
        return;
      }
      case 'syncDomains':
        // Queued syncs collapse into one: each sets the organization's domains as they are now.
        while (this.#queue[0]?.kind === 'syncDomains') this.#queue.shift();
        return this.#syncDomains();
      case 'syncSso':
        return this.#syncSso(command.connection_id);
      case 'syncDirectoryUser': {
        // Queued syncs of the same SCIM user collapse into one: each makes the provider and the member match it as it is now.
        const others = this.#queue.filter((queued) => !(queued.kind === 'syncDirectoryUser' && queued.scim_user_id === command.scim_user_id));
        this.#queue.splice(0, this.#queue.length, ...others);
        return this.#syncDirectoryUserDurably(command.directory_id, command.scim_user_id);
      }
      case 'syncMember': {
        // Queued syncs of the same member collapse into one: each makes the provider match the record as it is now.
        const others = this.#queue.filter((queued) => !(queued.kind === 'syncMember' && queued.user_id === command.user_id));
        this.#queue.splice(0, this.#queue.length, ...others);
        return this.#syncMemberDurably(command.user_id);
      }
    }
  }

  async #readTimeline(): Promise<void> {
    this.#timelineStale = false;
    // Local activities: no round trip through the server ahead of the command that woke the actor.
    const { status, upcoming } = await this.#stored('loadTenantTimeline', () => this.#localStore.loadTenantTimeline(this.#input.tenantId));
    this.state.timeline = {
      status,
      upcoming: upcoming.map((e) => ({
        kind: e.kind,
        at: new Date(e.at).toISOString(),
        ...(e.kind === 'entitlement_expired' ? { product: e.product } : {}),
        ...(e.kind === 'invitation_expired' ? { invitationId: e.invitationId } : {}),
        ...(e.kind === 'domain_check' ? { domainId: e.domainId } : {}),
      })),
    };
  }

  /** The soonest of the next lifecycle event and the next retry of a failing claims push or member sync. */
  #nextWakeAt(): number | undefined {
    const times = (this.state.timeline?.upcoming ?? []).map((e) => Date.parse(e.at));
    if (this.state.claimsPush) times.push(Date.parse(this.state.claimsPush.retryAt));
    for (const failure of Object.values(this.state.memberSync ?? {})) if (failure.retryAt) times.push(Date.parse(failure.retryAt));
    for (const failure of Object.values(this.state.directorySync ?? {})) if (failure.retryAt) times.push(Date.parse(failure.retryAt));
    return times.length ? Math.min(...times) : undefined;
  }

  /**
   * A timer fired: retry a failing push and the failing member syncs whose time came, apply the lifecycle events now
   * due, push what they changed.
   */
  async #onTimer(): Promise<void> {
    const now = Date.now();
    this.#timelineStale = true;
    const retryAt = this.state.claimsPush && Date.parse(this.state.claimsPush.retryAt);
    if (retryAt !== undefined && retryAt <= now) await this.#pushClaimsDurably();
    const dueSyncs = Object.entries(this.state.memberSync ?? {}).filter(([, failure]) => failure.retryAt && Date.parse(failure.retryAt) <= now);
    for (const [userId] of dueSyncs) await this.#syncMemberDurably(userId);
    const dueDirectorySyncs = Object.entries(this.state.directorySync ?? {}).filter(([, failure]) => failure.retryAt && Date.parse(failure.retryAt) <= now);
    for (const [scimUserId, failure] of dueDirectorySyncs) await this.#syncDirectoryUserDurably(failure.directoryId, scimUserId);
    if (!(this.state.timeline?.upcoming ?? []).some((e) => Date.parse(e.at) <= now)) return;
    const { claimsChanged, membersRemoved, domainsChanged } = await this.#stored('applyDueLifecycle', () =>
      this.#localStore.applyDueLifecycle(this.#input.tenantId, now),
    );
    if (claimsChanged) await this.#pushClaimsDurably();
    if (domainsChanged) await this.#syncDomains();
    // The pending members of expired invitations leave the organization now (their outbox copies follow later).
    for (const userId of membersRemoved ?? []) await this.#syncMemberDurably(userId);
  }

  /**
   * Pushes the claims as of now; a failure is kept in the state with the time of the next try (PUSH_RETRY),
   * and the first failure of a streak is appended to the audit log as idp.claims_push_failed. Success clears it.
   */
  async #pushClaimsDurably(): Promise<void> {
    const tenantId = this.#input.tenantId;
    try {
      await this.#idp.pushTenantClaims(tenantId, Date.now());
      this.state.claimsPush = undefined;
    } catch (error) {
      const attempts = (this.state.claimsPush?.attempts ?? 0) + 1;
      const delay = retryDelayMs(PUSH_RETRY, attempts);
      const failure = { kind: failureKind(error), message: failureMessage(error), attempts };
      this.state.claimsPush = { attempts, kind: failure.kind, lastError: failure.message, retryAt: new Date(Date.now() + delay).toISOString() };
      if (attempts === 1) {
        const outcomeId = this.#outcomeId('claims-push');
        await this.#stored('recordClaimsPushFailure', () => this.#localStore.recordClaimsPushFailure(tenantId, failure, outcomeId));
      }
    }
  }

  /**
   * Makes the provider match one member's record as it is now. A failure is kept in the state by user id (memberSync),
   * its first of a streak appended as idp.member_sync_failed; the actor tries again on a durable timer (PUSH_RETRY)
   * unless the kind needs an operator, whose retryProvisioning runs it again. Success clears it.
   */
  async #syncMemberDurably(userId: string): Promise<void> {
    const tenantId = this.#input.tenantId;
    try {
      await this.#idp.syncMember(tenantId, userId, Date.now());
      this.#keepMemberSyncFailure(userId, undefined);
    } catch (error) {
      const attempts = (this.state.memberSync?.[userId]?.attempts ?? 0) + 1;
      const failure = { kind: failureKind(error), message: failureMessage(error), attempts };
      const retried = !NON_RETRYABLE_FAILURE_KINDS.includes(failure.kind);
      this.#keepMemberSyncFailure(userId, retried ? { ...failure, retryAt: new Date(Date.now() + retryDelayMs(PUSH_RETRY, attempts)).toISOString() } : failure);
      if (attempts === 1) {
        const outcomeId = this.#outcomeId(`member-sync:${userId}`);
        await this.#stored('recordMemberSyncFailure', () => this.#localStore.recordMemberSyncFailure(tenantId, userId, failure, outcomeId));
      }
    }
  }

  /**
   * Sets the organization's domains to the tenant's verified ones (the provisioning retry policy for an unavailable
   * provider). A failure is audited once as idp.domain_sync_failed; the next change of a domain sets them again.
   */
  async #syncDomains(): Promise<void> {
    const tenantId = this.#input.tenantId;
    try {
      await this.#idp.syncOrganizationDomains(tenantId);
    } catch (error) {
      const failure = { kind: failureKind(error), message: failureMessage(error) };
      log.warn('organization domains not synced', { tenantId, ...failure });
      const outcomeId = this.#outcomeId('domains');
      await this.#stored('recordProviderSyncFailure', () => this.#localStore.recordProviderSyncFailure(tenantId, 'domain', failure, outcomeId));
    }
  }

  /**
   * Makes a directory's SCIM user match in the provider and the tenant (the provisioning retry policy for an
   * unavailable provider). A failure that outlasts it is kept in the state by SCIM user id (directorySync), its first
   * of a streak audited as idp.directory_sync_failed, and tried again on a durable timer (PUSH_RETRY) unless its kind
   * needs an operator, whose retryProvisioning runs it again: a leaver's deactivation is never dropped. Success clears it.
   */
  async #syncDirectoryUserDurably(directoryId: string, scimUserId: string): Promise<void> {
    const tenantId = this.#input.tenantId;
    try {
      await this.#idp.syncDirectoryUser(tenantId, directoryId, scimUserId);
      this.#keepDirectorySyncFailure(scimUserId, undefined);
    } catch (error) {
      const attempts = (this.state.directorySync?.[scimUserId]?.attempts ?? 0) + 1;
      const failure = { kind: failureKind(error), message: failureMessage(error) };
      const retried = !NON_RETRYABLE_FAILURE_KINDS.includes(failure.kind);
      log.warn('directory user not synced', { tenantId, directoryId, scimUserId, attempts, ...failure });
      const retryAt = retried ? { retryAt: new Date(Date.now() + retryDelayMs(PUSH_RETRY, attempts)).toISOString() } : {};
      this.#keepDirectorySyncFailure(scimUserId, { directoryId, ...failure, attempts, ...retryAt });
      if (attempts === 1) {
        const outcomeId = this.#outcomeId(`directory:${scimUserId}`);
        await this.#stored('recordProviderSyncFailure', () => this.#localStore.recordProviderSyncFailure(tenantId, 'directory', failure, outcomeId, scimUserId));
      }
    }
  }

  /**
   * Makes an SSO connection's identity provider match it (the provisioning retry policy for an unavailable provider). A
   * failure is audited once as idp.sso_sync_failed; the next change of the connection syncs it again.
   */
  async #syncSso(connectionId: string): Promise<void> {
    const tenantId = this.#input.tenantId;
    try {
      await this.#idp.syncSsoProvider(tenantId, connectionId);
    } catch (error) {
      const failure = { kind: failureKind(error), message: failureMessage(error) };
      log.warn('SSO identity provider not synced', { tenantId, connectionId, ...failure });
      const outcomeId = this.#outcomeId(`sso:${connectionId}`);
      await this.#stored('recordProviderSyncFailure', () => this.#localStore.recordProviderSyncFailure(tenantId, 'sso', failure, outcomeId, connectionId));
    }
  }

  /** Sets (or, undefined, clears) a member's sync failure in the state; no failure left leaves no memberSync. */
  #keepMemberSyncFailure(userId: string, failure: MemberSyncFailure | undefined): void {
    const others = Object.fromEntries(Object.entries(this.state.memberSync ?? {}).filter(([id]) => id !== userId));
    const next = failure ? { ...others, [userId]: failure } : others;
    this.state.memberSync = Object.keys(next).length > 0 ? next : undefined;
  }

  /** Sets (or, undefined, clears) a SCIM user's sync failure in the state; none left leaves no directorySync. */
  #keepDirectorySyncFailure(scimUserId: string, failure: DirectorySyncFailure | undefined): void {
    const others = Object.fromEntries(Object.entries(this.state.directorySync ?? {}).filter(([id]) => id !== scimUserId));
    const next = failure ? { ...others, [scimUserId]: failure } : others;
    this.state.directorySync = Object.keys(next).length > 0 ? next : undefined;
  }

  /** What an outcome event names besides the outcome: the provider's ids known so far, and who asked, if an operator did. */
  #outcomeContext(request: OperatorRequest | undefined): OutcomeContext {
    const { userId, organizationId } = this.state;
    return { ...(userId ? { userId } : {}), ...(organizationId ? { organizationId } : {}), ...(request ? { request } : {}) };
  }

  #shouldContinueAsNew(): boolean {
    const long = workflowInfo().historyLength >= (this.#input.historyEventsPerRun ?? HISTORY_EVENTS_PER_RUN);
    return this.#commandsSpent() || long;
  }

  /** The run has handled its budget of commands, or Temporal suggests continuing (a history near its limits). */
  #commandsSpent(): boolean {
    return this.#handled >= (this.#input.maxCommandsPerRun ?? MAX_COMMANDS_PER_RUN) || workflowInfo().continueAsNewSuggested;
  }

  #outcomeId(what: string): string {
    return `${workflowInfo().runId}:${this.#handled}:${what}`;
  }

  /** Provisions the tenant's IT_ADMIN and records the outcome; `request` says who asked, if an operator did. */
  async #provision(request?: OperatorRequest): Promise<void> {
    const { state } = this;
    state.provisioning = 'running';
    state.runs += 1;
    const tenantId = this.#input.tenantId;
    try {
      const tenant = await this.#stored('loadTenantForProvisioning', () => this.#localStore.loadTenantForProvisioning(tenantId), ['tenant_not_found']);
      const { adminEmail } = tenant;
      if (!adminEmail) {
        state.provisioning = 'not_requested';
        return;
      }
      const organizationName = organizationNameOf(tenant);
      const runKey = this.#provisioningKey();
      const request = { tenantId, slug: tenant.slug, organizationName, adminEmail, adminName: tenant.adminName ?? undefined, runKey, asOf: Date.now() };
      const ran = await this.#runProviderSteps(request);
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
    await this.#stored('recordProvisioningOutcome', () => this.#localStore.recordProvisioningOutcome(tenantId, outcome, outcomeId, false, context));
  }

  /**
   * The key of the provisioning under way, for its invite (the ledger) and its outcome event alike: the same when a
   * lost workflow task has it redone after other commands, new with each retry (docs/decisions.md).
   */
  #provisioningKey(): string {
    return `${workflowInfo().firstExecutionRunId}:provision:${this.state.runs}`;
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

  /**
   * Sends an invitation's current link: its steps in one local activity per attempt, retried by the actor with the
   * provisioning policy (an `unavailable` provider again after its backoff; any other kind ends it). The outcome is
   * recorded (`idp.invitation_sent` / `idp.invitation_failed`); a failed invitation stays pending for a resend.
   */
  async #sendInvitation(invitationId: string): Promise<InvitationSendOutcome> {
    const tenantId = this.#input.tenantId;
    let outcome: InvitationSendOutcome;
    let done: InvitationStepsDone | undefined;
    let recorded: InvitationSendRecorded | undefined;
    const attempt = async (): Promise<InvitationStepsDone> => {
      recorded = await this.#localProviderSteps.runInvitationStepsRecorded(tenantId, invitationId);
      return recorded.done;
    };
    try {
      done = await this.#retriedByActor(attempt, () => false);
      outcome = done.status === 'sent' ? { status: 'sent', ...(done.inviteUrl ? { inviteUrl: done.inviteUrl } : {}) } : { status: 'skipped' };
    } catch (error) {
      const stopped = invitationStepsStopped(error);
      outcome = { status: 'failed', kind: failureKind(error), step: stopped?.step ?? 'invite', message: stopped?.message ?? failureMessage(error) };
    }
    if (outcome.status === 'skipped') return outcome;
    const sent = done?.status === 'sent' ? done : undefined;
    if (sent && recorded?.expiresAt !== undefined) this.#keepInvitationExpiry(invitationId, recorded.expiresAt);
    if (sent && recorded?.recorded) return outcome;
    const event = outcome.status === 'failed' ? { status: 'failed' as const, kind: outcome.kind, step: outcome.step, message: outcome.message } : { status: 'sent' as const };
    const context = sent ? { userId: sent.userId, organizationId: sent.organizationId, sendCount: sent.sendCount } : {};
    // A send is keyed by the secret it mailed; a failure is one per command.
    const outcomeId = sent ? sentInvitationOutcomeId(invitationId, sent.sendCount) : this.#outcomeId(`invitation:${invitationId}`);
    await this.#stored('recordInvitationOutcome', () => this.#localStore.recordInvitationOutcome(tenantId, invitationId, event, outcomeId, context));
    return outcome;
  }

  /**
   * Puts a sent invitation's expiry in the timeline, as reading it again would: the send moved nothing else in it.
   * Without a timeline read yet, the read to come has it.
   */
  #keepInvitationExpiry(invitationId: string, expiresAt: number): void {
    const timeline = this.state.timeline;
    if (!timeline || this.#timelineStale) return;
    const others = timeline.upcoming.filter((e) => !(e.kind === 'invitation_expired' && e.invitationId === invitationId));
    const expiry = { kind: 'invitation_expired' as const, at: new Date(expiresAt).toISOString(), invitationId };
    timeline.upcoming = [...others, expiry].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    this.#timelineKept = true;
  }

  /** Sends the invite again (provisions instead while that never succeeded) and records the outcome as a resend. */
  async #resendInvite(request: OperatorRequest): Promise<void> {
    const { state } = this;
    if (state.provisioning !== 'succeeded' || !state.userId) return this.#provision(request);
    const tenantId = this.#input.tenantId;
    let outcome: RecordedOutcome;
    try {
      // A resend goes by e-mail; no request waits for its link, so the actor does not keep it.
      await this.#idp.resendAdminInvite(tenantId, state.userId, Date.now());
      outcome = { status: 'succeeded' };
    } catch (error) {
      outcome = { status: 'failed', kind: failureKind(error), step: 'invite', message: failureMessage(error) };
    }
    const outcomeId = this.#outcomeId('resend');
    const context = this.#outcomeContext(request);
    await this.#stored('recordProvisioningOutcome', () => this.#store.recordProvisioningOutcome(tenantId, outcome, outcomeId, true, context));
  }

  /**
   * The provisioning retry policy (the input's) applied by the actor, so its budget is counted in the history: a
   * failure of a kind that needs an operator, or the last allowed attempt's, ends the step; any other is tried again
   * after the policy's backoff, on a durable timer. `startsAfresh`, asked after a failed attempt, says it got past a
   * step: the next step gets the whole budget.
   */
  async #retriedByActor<T>(attempt: () => Promise<T>, startsAfresh: () => boolean): Promise<T> {
    const policy = this.#input.retry;
    let made = 0;
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        if (startsAfresh()) made = 0;
        made += 1;
        if (attemptsExhausted(policy, made) || NON_RETRYABLE_FAILURE_KINDS.includes(failureKind(error))) throw error;
        await sleep(retryDelayMs(policy, made));
      }
    }
  }

  /**
   * A statement of the registry's own, run until it succeeds: its activity already retries, but should it still fail
   * (a local activity ended by the worker's own troubles while PostgreSQL was down), the failure would otherwise end
   * the actor's run, and with it the tenant's state, so that the next command started a new actor that provisioned
   * again. Retried on a durable timer by STORE_RETRY. `finalTypes` are answers, not failures (a tenant that does not
   * exist).
   */
  async #stored<T>(what: string, call: () => Promise<T>, finalTypes: string[] = []): Promise<T> {
    for (let failures = 1; ; failures++) {
      try {
        return await call();
      } catch (error) {
        // A local activity's failure arrives as its ApplicationFailure itself, a regular one's wrapped in ActivityFailure.
        const failedCall = error instanceof ActivityFailure || error instanceof ApplicationFailure;
        if (!failedCall || finalTypes.includes(failureKind(error))) throw error;
        const delay = retryDelayMs(STORE_RETRY, failures);
        log.warn('registry statement failed; trying again', { what, retryInMs: delay, error: failureMessage(error) });
        await sleep(delay);
      }
    }
  }
}

/** The details of a failed attempt at an invitation's steps; undefined for any other failure. */
function invitationStepsStopped(error: unknown): InvitationStepsStopped | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof ApplicationFailure ? (cause.details?.[0] as InvitationStepsStopped | undefined) : undefined;
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
