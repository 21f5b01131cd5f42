import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/**
 * What the actor reads of an activity's failure. A local activity's failure arrives as its ApplicationFailure itself,
 * a regular one's wrapped in an ActivityFailure: each reader looks through the wrapper.
 */
const causeOf = (error: unknown): unknown => (error instanceof ActivityFailure ? error.cause : error);

/** The failure's kind (the activity typed it by the provider's failure kind); anything untyped is `unavailable`. */
export function failureKind(error: unknown): string {
  const cause = causeOf(error);
  if (cause instanceof ApplicationFailure && cause.type) return cause.type;
  return 'unavailable';
}

export function failureMessage(error: unknown): string {
  const cause = causeOf(error);
  return cause instanceof Error ? cause.message : String(error);
}

/** The details a failed attempt of several steps put in its failure (how far it got); undefined for any other failure. */
export function stoppedDetails<T>(error: unknown): T | undefined {
  const cause = causeOf(error);
  return cause instanceof ApplicationFailure ? (cause.details?.[0] as T | undefined) : undefined;
}

/** Whether the error is an activity's failure (not the workflow's own). */
export const isActivityFailure = (error: unknown): boolean => error instanceof ActivityFailure || error instanceof ApplicationFailure;
