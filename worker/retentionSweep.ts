import { Client } from '@temporalio/client';
import type { PayloadCodec } from '@temporalio/common';
import type { NativeConnection } from '@temporalio/worker';
import type { Logger } from '../platform/logger.ts';
import { runPeriodically } from '../platform/periodicTask.ts';
import { retentionWorkflowId } from '../workflows/retention/retentionMessages.ts';
import type { retentionWorkflow } from '../workflows/retention/retentionWorkflow.ts';

/** How often the worker makes sure the sweep exists: one an operator terminated runs again within this. */
const CHECK_EVERY_MS = 10 * 60_000;

/**
 * Starts the retention sweep of the worker's task queue unless it runs already (every worker asks; the first start
 * makes it, the others find it), now, beside the worker's polling, and every CHECK_EVERY_MS until stop(). A start
 * that fails is logged and asked again at the next check; the sweep's own schedule is its workflow's timer, not this.
 */
export function keepRetentionSweepStarted(deps: {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  payloadCodec: PayloadCodec;
  log: Logger;
  /** Bound on one start (TEMPORAL_HANDOFF_TIMEOUT_MS). */
  timeoutMs: number;
  checkEveryMs?: number;
}): { stop(): Promise<void> } {
  const client = new Client({ connection: deps.connection, namespace: deps.namespace, dataConverter: { payloadCodecs: [deps.payloadCodec] } });
  const workflowId = retentionWorkflowId(deps.taskQueue);
  const start = async () => {
    await deps.connection.withDeadline(Date.now() + deps.timeoutMs, () =>
      client.workflow.start<typeof retentionWorkflow>('retentionWorkflow', { workflowId, taskQueue: deps.taskQueue, workflowIdConflictPolicy: 'USE_EXISTING' }),
    );
  };
  const warn = (err: unknown) => deps.log.warn({ workflowId, err }, 'could not start the retention sweep; will retry');
  const first = start().catch(warn);
  const checks = runPeriodically(deps.checkEveryMs ?? CHECK_EVERY_MS, start, warn);
  return {
    async stop() {
      await first;
      await checks.stop();
    },
  };
}
