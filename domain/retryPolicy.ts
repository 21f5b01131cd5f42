/**
 * An exponential backoff, in the words of Temporal's own retry policy: the first retry waits `initialIntervalMs`, each
 * later one `backoffCoefficient` times the one before, never more than `maximumIntervalMs`. Every hand-written retry
 * of the workflows and activities waits by it, and the same value becomes an activity's Temporal retry policy, so a
 * backoff is said once. Plain TypeScript: the workflow sandbox imports it.
 */
export interface RetryPolicy {
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  /** Attempts in all, the first included; 0 or absent: no limit (as in Temporal's retry policy). */
  maximumAttempts?: number;
}

/**
 * How long to wait after the `attempt`-th failed attempt (1 for the first) before the next one. Multiplied step by
 * step, as Temporal does, so a delay is the same number whichever loop asks for it.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number): number {
  let delay = policy.initialIntervalMs;
  for (let made = 1; made < attempt && delay < policy.maximumIntervalMs; made++) delay *= policy.backoffCoefficient;
  return Math.min(policy.maximumIntervalMs, delay);
}

/** True when `attemptsMade` attempts have used up the policy's budget (never, without a maximum). */
export function attemptsExhausted(policy: RetryPolicy, attemptsMade: number): boolean {
  const maximum = policy.maximumAttempts ?? 0;
  return maximum > 0 && attemptsMade >= maximum;
}
