import type { RetryPolicy } from '../../domain/retryPolicy.ts';

/**
 * Backoff of a failing claims push, retried until it succeeds, and of a member or directory sync failing for an
 * unavailable provider: 5 s doubling, at most 10 minutes apart, on the actor's durable timer.
 */
export const SYNC_RETRY: RetryPolicy = { initialIntervalMs: 5_000, backoffCoefficient: 2, maximumIntervalMs: 10 * 60_000 };

/**
 * The registry's own statements, retried until the database answers: 1 s doubling, at most a minute apart, both by
 * their activity and, should that still fail, by the actor on a durable timer (ActorContext.stored).
 */
export const STORE_RETRY: RetryPolicy = { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 60_000 };
