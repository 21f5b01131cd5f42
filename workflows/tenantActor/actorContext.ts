import { log, proxyActivities, proxyLocalActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { TenantActorActivities } from '../../activities/tenantActor/tenantActorActivities.ts';
import { attemptsExhausted, retryDelayMs, type RetryPolicy } from '../../domain/retryPolicy.ts';
import { temporalRetry } from '../temporalRetry.ts';
import { failureKind, failureMessage, isActivityFailure } from './activityFailure.ts';
import { STORE_RETRY } from './actorRetryPolicies.ts';
import { CommandQueue } from './commandQueue.ts';
import { NON_RETRYABLE_FAILURE_KINDS } from '../../domain/provisioning/provisioningVocabulary.ts';
import type { TenantActorInput, TenantActorState } from './tenantActorMessages.ts';

/**
 * What every family of the actor (families/) works with: the tenant, the actor's state and queue, the activities as
 * the actor calls them, and the two ways it retries (a statement of the registry's own, an attempt of the provider's
 * steps) on its durable timers.
 */
export class ActorContext {
  readonly tenantId: string;
  /** The provisioning retry policy (PROVISIONING_RETRY_*), applied to an unavailable provider. */
  readonly retry: RetryPolicy;
  readonly state: TenantActorState;
  readonly queue: CommandQueue;
  /** The provider outside provisioning (claims pushes, syncs, resends), as regular activities with the provisioning retry policy. */
  readonly idp: TenantActorActivities;
  /** The registry's statements of a resend, as regular activities. */
  readonly store: TenantActorActivities;
  /** The registry's statements of provisioning, outcomes and the timeline, as local activities. */
  readonly localStore: TenantActorActivities;
  /** The provider's steps of provisioning and of an invitation's send: one local activity an attempt, retried by the actor. */
  readonly localProviderSteps: TenantActorActivities;
  #handled = 0;

  constructor(input: TenantActorInput) {
    this.tenantId = input.tenantId;
    this.retry = input.retry;
    this.state = input.state ?? { provisioning: 'idle', runs: 0 };
    this.queue = new CommandQueue(input.pending);
    const idpRetry = temporalRetry(input.retry, NON_RETRYABLE_FAILURE_KINDS);
    // The registry's own database: retried until it answers, an outcome must never be dropped.
    const storeRetry = temporalRetry(STORE_RETRY, ['tenant_not_found']);
    this.idp = proxyActivities<TenantActorActivities>({ startToCloseTimeout: '30 seconds', retry: idpRetry });
    this.store = proxyActivities<TenantActorActivities>({ startToCloseTimeout: '30 seconds', retry: storeRetry });
    this.localStore = proxyLocalActivities<TenantActorActivities>({ startToCloseTimeout: '30 seconds', retry: storeRetry });
    // The provider steps in one attempt: each keeps the 30 s it had as its own activity (the invite's ledger may
    // wait for PostgreSQL on its own, and an attempt cut short after its e-mail would send it again).
    this.localProviderSteps = proxyLocalActivities<TenantActorActivities>({ startToCloseTimeout: '150 seconds', retry: { maximumAttempts: 1 } });
  }

  /** Commands this run has taken from its queue. */
  get handled(): number {
    return this.#handled;
  }

  /** Counts the command just taken from the queue: outcome ids name a command by its place in the run. */
  took(): void {
    this.#handled += 1;
  }

  /** The outcome id of what the command being handled records (`what`), by its place in the run. */
  outcomeId(what: string): string {
    return `${workflowInfo().runId}:${this.#handled}:${what}`;
  }

  /**
   * The provisioning retry policy applied by the actor, so its budget is counted in the history: a failure of a kind
   * that needs an operator, or the last allowed attempt's, ends the step; any other is tried again after the policy's
   * backoff, on a durable timer. `startsAfresh`, asked after a failed attempt, says it got past a step: the next step
   * gets the whole budget.
   */
  async retriedByActor<T>(attempt: () => Promise<T>, startsAfresh: () => boolean): Promise<T> {
    let made = 0;
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        if (startsAfresh()) made = 0;
        made += 1;
        if (attemptsExhausted(this.retry, made) || NON_RETRYABLE_FAILURE_KINDS.includes(failureKind(error))) throw error;
        await sleep(retryDelayMs(this.retry, made));
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
  async stored<T>(what: string, call: () => Promise<T>, finalTypes: string[] = []): Promise<T> {
    for (let failures = 1; ; failures++) {
      try {
        return await call();
      } catch (error) {
        if (!isActivityFailure(error) || finalTypes.includes(failureKind(error))) throw error;
        const delay = retryDelayMs(STORE_RETRY, failures);
        log.warn('registry statement failed; trying again', { what, retryInMs: delay, error: failureMessage(error) });
        await sleep(delay);
      }
    }
  }
}
