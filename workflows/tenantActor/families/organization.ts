import { retryDelayMs } from '../../../domain/retryPolicy.ts';
import type { ActorContext } from '../actorContext.ts';
import { failureKind, failureMessage } from '../activityFailure.ts';
import { SYNC_RETRY } from '../actorRetryPolicies.ts';
import type { CommandHandlers } from '../commandHandlers.ts';

/**
 * The tenant's organization in the identity provider: its claims (status, plan, products, each member's roles)
 * pushed into its users' attributes, retried until the push succeeds (`pushClaims`).
 */
export class Organization {
  readonly #actor: ActorContext;

  constructor(actor: ActorContext) {
    this.#actor = actor;
  }

  readonly handlers: Pick<CommandHandlers, 'pushClaims'> = {
    pushClaims: () => {
      // Queued pushes collapse into one: each push sends the bundle as it is now.
      this.#actor.queue.dropLeading('pushClaims');
      return this.pushClaims();
    },
  };

  /**
   * Pushes the claims as of now; a failure is kept in the state with the time of the next try (SYNC_RETRY), and the
   * first failure of a streak is appended to the audit log as idp.claims_push_failed. Success clears it.
   */
  async pushClaims(): Promise<void> {
    const { tenantId, state } = this.#actor;
    try {
      await this.#actor.idp.pushTenantClaims(tenantId, Date.now());
      state.claimsPush = undefined;
    } catch (error) {
      const attempts = (state.claimsPush?.attempts ?? 0) + 1;
      const delay = retryDelayMs(SYNC_RETRY, attempts);
      const failure = { kind: failureKind(error), message: failureMessage(error), attempts };
      state.claimsPush = { attempts, kind: failure.kind, lastError: failure.message, retryAt: new Date(Date.now() + delay).toISOString() };
      if (attempts === 1) {
        const outcomeId = this.#actor.outcomeId('claims-push');
        await this.#actor.stored('recordClaimsPushFailure', () => this.#actor.localStore.recordClaimsPushFailure(tenantId, failure, outcomeId));
      }
    }
  }

  /** When a failing push is tried again; none while pushes succeed. */
  retryTimes(): number[] {
    const push = this.#actor.state.claimsPush;
    return push ? [Date.parse(push.retryAt)] : [];
  }

  /** Whether the claims push is still failing: the actor of an archived tenant waits for it. */
  failing(): boolean {
    return Boolean(this.#actor.state.claimsPush);
  }

  /** A timer fired: the failing push is tried again once its time came. */
  async retryDue(now: number): Promise<void> {
    const push = this.#actor.state.claimsPush;
    if (push && Date.parse(push.retryAt) <= now) await this.pushClaims();
  }
}
