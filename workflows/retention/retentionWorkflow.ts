import { continueAsNew, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { RetentionActivities } from '../../activities/retention/retentionActivities.ts';
import { RETAINED_ROWS } from '../../domain/retention/retainedRows.ts';
import type { RetryPolicy } from '../../domain/retryPolicy.ts';
import { temporalRetry } from '../temporalRetry.ts';
import { RETENTION_SWEEP_INTERVAL_MS, retentionStateQuery, type RetentionState } from './retentionMessages.ts';

/** A store that cannot be reached is tried again, backing off to one attempt every 5 minutes, for as long as it takes. */
const REMOVAL_RETRY: RetryPolicy = { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 5 * 60_000 };
const { removeEndedRows } = proxyActivities<RetentionActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: temporalRetry(REMOVAL_RETRY),
});

/** Passes of one kind a sweep runs back to back while each stops with more due: a large backlog takes a few sweeps. */
const PASSES_PER_SWEEP = 50;
/** Sweeps before the history starts afresh (each is a handful of events). */
const SWEEPS_PER_RUN = 200;

/**
 * The retention sweep: every hour, each kind of retained row (domain/retention/retainedRows.ts) whose retention
 * has passed by the workflow's clock is removed, in bounded passes. The timer is Temporal's, so the schedule
 * survives any restart of the worker; the worker starts the workflow (worker/retentionSweep.ts).
 */
export async function retentionWorkflow(): Promise<void> {
  const state: RetentionState = { sweeps: 0, lastRemoved: {} };
  setHandler(retentionStateQuery, () => state);
  for (let sweep = 0; sweep < SWEEPS_PER_RUN && !workflowInfo().continueAsNewSuggested; sweep++) {
    for (const rows of RETAINED_ROWS) {
      let removed = 0;
      for (let pass = 0; pass < PASSES_PER_SWEEP; pass++) {
        const done = await removeEndedRows(rows, Date.now());
        removed += done.removed;
        if (!done.more) break;
      }
      state.lastRemoved[rows] = removed;
    }
    state.sweeps += 1;
    await sleep(RETENTION_SWEEP_INTERVAL_MS);
  }
  await continueAsNew<typeof retentionWorkflow>();
}
