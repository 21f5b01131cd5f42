import { Context, log } from '@temporalio/activity';
import { removableEndedBefore, type RetainedRows, type RetentionPeriods } from '../../domain/retention/retainedRows.ts';
import type { RetainedRowsStore } from '../../domain/retention/retainedRowsStore.ts';
import type { WorkerMetrics } from '../../platform/metrics/workerMetrics.ts';

export interface RetentionActivityDeps {
  rows: RetainedRowsStore;
  /** PORTAL_LINK_RETENTION_DAYS, OUTBOX_DELIVERED_RETENTION_DAYS, DIRECTORY_TOKEN_RETENTION_HOURS (worker/retentionPeriodsOf.ts). */
  periods: RetentionPeriods;
  metrics?: Pick<WorkerMetrics, 'retainedRowsRemoved'>;
  /** Rows one statement removes at most: a backlog is many short transactions, never one long one. */
  batchSize?: number;
  /** Batches one activity runs before it hands back to the workflow, which calls it again while there is more. */
  batchesPerPass?: number;
}

/** What one pass removed, and whether it stopped with rows still due (its last batch was full). */
export interface RetentionPass {
  removed: number;
  more: boolean;
}

export function createRetentionActivities(deps: RetentionActivityDeps) {
  const batchSize = deps.batchSize ?? 500;
  const batchesPerPass = deps.batchesPerPass ?? 20;
  return {
    /**
     * Removes the rows of `rows` whose retention had passed at `asOf` (the workflow's time), batch after batch, up
     * to the pass's bound; each batch is counted as it commits, so a pass cut short by a failure counts what went.
     * Idempotent: a row removed is not found again, and a retry only finds what is still due.
     */
    async removeEndedRows(rows: RetainedRows, asOf: number): Promise<RetentionPass> {
      const endedBefore = removableEndedBefore(rows, deps.periods, asOf);
      let removed = 0;
      let more = true;
      for (let batch = 0; batch < batchesPerPass && more; batch++) {
        const went = await deps.rows.removeEnded(rows, endedBefore, batchSize);
        removed += went;
        more = went === batchSize;
        deps.metrics?.retainedRowsRemoved.inc({ rows }, went);
        Context.current().heartbeat(removed);
      }
      log.info('retention removed ended rows', { rows, removed, endedBefore: endedBefore.toISOString(), more });
      return { removed, more };
    },
  };
}

export type RetentionActivities = ReturnType<typeof createRetentionActivities>;
