import { condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { WebhookDeliveryActivities } from '../../activities/webhookDelivery/webhookDeliveryActivities.ts';
import { retryDelayMs, type RetryPolicy } from '../../domain/retryPolicy.ts';
import { WEBHOOK_RETRY, WEBHOOK_RETRY_WINDOW_MS } from '../../domain/webhooks/webhookDeliveryPolicy.ts';
import { temporalRetry } from '../temporalRetry.ts';
import { webhookDeliveryStateQuery, webhookWakeSignal, type WebhookDeliveryInput } from './webhookDeliveryMessages.ts';

/**
 * An activity that cannot reach the database (or dies with its worker) is retried by Temporal for as long as it
 * takes, resuming from its heartbeat; a receiver's failure is an answer the workflow handles, not a retry.
 */
const STORE_RETRY: RetryPolicy = { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 60_000 };
const { deliverWebhookBatch, disableWebhookEndpoint } = proxyActivities<WebhookDeliveryActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: temporalRetry(STORE_RETRY),
});

/** Rounds before the history starts afresh (each round is a batch, a wait for events, or a failed attempt and its backoff). */
const MAX_ROUNDS_PER_RUN = 200;

/**
 * One webhook endpoint's delivery, for as long as it is enabled: each round delivers the next events in sequence order
 * (or waits a while for new ones). A failure is retried with WEBHOOK_RETRY's backoff, on durable timers, until a
 * delivery goes through; after WEBHOOK_RETRY_WINDOW_MS of failures the endpoint is disabled and the workflow ends. The
 * cursor lives in the workflow and in the endpoint's row, so a worker or API restart resumes where delivery stood.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<void> {
  const { endpointId } = input;
  let { afterSequence, replayGeneration, failingSince } = input;
  let failures = input.failures ?? 0;
  let woken = false;
  setHandler(webhookWakeSignal, () => {
    woken = true;
  });
  setHandler(webhookDeliveryStateQuery, () => ({ afterSequence, replayGeneration, failures, ...(failingSince === undefined ? {} : { failingSince }) }));
  for (let round = 0; round < MAX_ROUNDS_PER_RUN && !workflowInfo().continueAsNewSuggested; round++) {
    woken = false;
    const outcome = await deliverWebhookBatch({ endpointId, afterSequence, replayGeneration });
    if (outcome.status === 'ended') return;
    ({ afterSequence, replayGeneration } = outcome);
    if (outcome.status !== 'failed') {
      failures = 0;
      failingSince = undefined;
      continue;
    }
    // The window counts from the first failure since the last delivery that went through.
    if (failingSince === undefined || outcome.progressed) {
      failingSince = Date.now();
      failures = 0;
    }
    failures += 1;
    if (Date.now() - failingSince >= WEBHOOK_RETRY_WINDOW_MS) {
      await disableWebhookEndpoint({ endpointId, reason: outcome.error, failingSince: new Date(failingSince).toISOString() });
      return;
    }
    await condition(() => woken, retryDelayMs(WEBHOOK_RETRY, failures));
  }
  await continueAsNew<typeof webhookDeliveryWorkflow>({ endpointId, afterSequence, replayGeneration, failures, ...(failingSince === undefined ? {} : { failingSince }) });
}
