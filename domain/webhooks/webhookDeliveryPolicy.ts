import type { RetryPolicy } from '../retryPolicy.ts';

/**
 * How a failing endpoint is retried: after 1 s, doubling to one attempt an hour, for 3 days from the first failure
 * since the last delivery that went through; then the endpoint is disabled. Plain TypeScript: the workflow reads it.
 */
export const WEBHOOK_RETRY: RetryPolicy = { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 3_600_000 };

export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 3_600_000;

/** How long a rotated-out secret goes on signing beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_SECONDS = 24 * 3_600;
