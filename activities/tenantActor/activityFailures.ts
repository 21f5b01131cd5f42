import { ApplicationFailure } from '@temporalio/activity';
import { IdpError } from '../../identityProvider/identityProvider.ts';
import { isRetryableFailure } from '../../domain/provisioning/provisioningVocabulary.ts';

/**
 * Provider errors become ApplicationFailures typed by their kind: the workflow's retry policy retries only
 * `unavailable`; the other kinds are listed as non-retryable there and flagged so here as well.
 */
export async function asActivityFailure<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof IdpError) {
      throw ApplicationFailure.create({ type: error.kind, message: error.message, nonRetryable: !isRetryableFailure(error.kind) });
    }
    throw error;
  }
}

/**
 * The failure of an attempt at several steps (provisioning's, an invitation's send), which the actor retries by its
 * own policy: non-retryable here, typed as Temporal would type the failure of the step run as its own activity, its
 * message naming the step (what the Temporal UI shows an operator), its details how far it got.
 */
export function stepsStopped(error: unknown, details: { step: string; message: string }): ApplicationFailure {
  const type = error instanceof ApplicationFailure ? (error.type ?? 'Error') : error instanceof Error ? error.name : 'Error';
  return ApplicationFailure.create({ type, message: `${details.step} step: ${details.message}`, nonRetryable: true, details: [details] });
}

/** An error's message, for a failure's details or a log line. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
