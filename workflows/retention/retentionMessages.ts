import { defineQuery } from '@temporalio/workflow';
import type { RetainedRows } from '../../domain/retention/retainedRows.ts';

/**
 * The one sweep of a registry's task queue: two registries sharing a Temporal namespace (each its own database and
 * task queue) each get their own.
 */
export const retentionWorkflowId = (taskQueue: string) => `retention-${taskQueue}`;

/** Between two sweeps: retention is counted in hours and days, so a row goes at most this much after its time. */
export const RETENTION_SWEEP_INTERVAL_MS = 60 * 60_000;

/** The sweeps this run of the workflow has finished, and what the last one removed of each kind. */
export interface RetentionState {
  sweeps: number;
  lastRemoved: Partial<Record<RetainedRows, number>>;
}

export const retentionStateQuery = defineQuery<RetentionState>('state');
