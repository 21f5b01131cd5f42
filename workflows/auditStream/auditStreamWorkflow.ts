import { continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { AuditStreamActivities } from '../../activities/auditStream/auditStreamActivities.ts';
import type { RetryPolicy } from '../../domain/retryPolicy.ts';
import { temporalRetry } from '../temporalRetry.ts';
import { auditStreamStateQuery, type AuditStreamInput } from './auditStreamMessages.ts';

/**
 * A receiver that keeps failing is retried for as long as the stream exists, backing off to one attempt a minute;
 * the activity heartbeats how far it got, so a retry (or another worker after a crash) resumes there.
 */
const DELIVERY_RETRY: RetryPolicy = { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 60_000 };
const { deliverAuditStreamBatch } = proxyActivities<AuditStreamActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: temporalRetry(DELIVERY_RETRY),
});

/** Rounds of delivery before the history starts afresh (each round is a handful of events). */
const MAX_ROUNDS_PER_RUN = 200;

/**
 * One audit stream's delivery, for as long as the stream exists: each round delivers the next events in id order
 * (or waits a while for new ones), and the cursor lives in the workflow, so a worker or API restart resumes where
 * delivery stood, without a gap. A deleted stream ends the workflow.
 */
export async function auditStreamWorkflow(input: AuditStreamInput): Promise<void> {
  let afterId = input.afterId;
  setHandler(auditStreamStateQuery, () => ({ deliveredThroughId: afterId }));
  for (let round = 0; round < MAX_ROUNDS_PER_RUN && !workflowInfo().continueAsNewSuggested; round++) {
    const progress = await deliverAuditStreamBatch(input.streamId, afterId);
    if (progress.status === 'deleted') return;
    afterId = progress.deliveredThroughId;
  }
  await continueAsNew<typeof auditStreamWorkflow>({ streamId: input.streamId, afterId });
}
