import type { RetryPolicy as TemporalRetryPolicy } from '@temporalio/workflow';
import type { RetryPolicy } from '../domain/retryPolicy.ts';

/** A retry policy as Temporal's activity options take it, so an activity's own retries back off as the policy says. */
export function temporalRetry(policy: RetryPolicy, nonRetryableErrorTypes?: string[]): TemporalRetryPolicy {
  return {
    initialInterval: policy.initialIntervalMs,
    backoffCoefficient: policy.backoffCoefficient,
    maximumInterval: policy.maximumIntervalMs,
    ...(policy.maximumAttempts !== undefined ? { maximumAttempts: policy.maximumAttempts } : {}),
    ...(nonRetryableErrorTypes ? { nonRetryableErrorTypes } : {}),
  };
}
