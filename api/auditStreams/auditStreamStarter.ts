import type { Client } from '@temporalio/client';
import type { AuditStreamRecord, AuditStreamRepository } from '../../domain/auditStreams/auditStreamRepository.ts';
import type { Logger } from '../../platform/logger.ts';
import { runPeriodically } from '../../platform/periodicTask.ts';
import { auditStreamWorkflowId } from '../../workflows/auditStreamMessages.ts';
import type { auditStreamWorkflow } from '../../workflows/auditStreamWorkflow.ts';

/** Starts and stops the delivery workflows of audit streams (one per stream, by workflow id). */
export class AuditStreamStarter {
  readonly #client: Client;
  readonly #taskQueue: string;
  readonly #timeoutMs: number;

  constructor(client: Client, taskQueue: string, timeoutMs: number) {
    this.#client = client;
    this.#taskQueue = taskQueue;
    this.#timeoutMs = timeoutMs;
  }

  /** Idempotent: a running delivery is left as it is; one that ended (terminated by an operator) starts again. */
  async start(stream: AuditStreamRecord): Promise<void> {
    await this.#client.connection.withDeadline(Date.now() + this.#timeoutMs, () =>
      this.#client.workflow.start<typeof auditStreamWorkflow>('auditStreamWorkflow', {
        workflowId: auditStreamWorkflowId(stream.id),
        taskQueue: this.#taskQueue,
        args: [{ streamId: stream.id, afterId: stream.deliveredThroughId }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    );
  }

  /** Cancels the delivery of a deleted stream; its activity would also see the deletion at its next step. */
  async stop(streamId: string): Promise<void> {
    await this.#client.connection.withDeadline(Date.now() + this.#timeoutMs, () => this.#client.workflow.getHandle(auditStreamWorkflowId(streamId)).cancel());
  }
}

/**
 * Makes sure every live stream has its delivery workflow: a stream created while Temporal was unreachable, or whose
 * workflow an operator terminated, gets one within `intervalMs`. Safe on every replica (starting is idempotent).
 */
export function startAuditStreamReconciler(deps: { streams: AuditStreamRepository; starter: AuditStreamStarter; log: Logger; intervalMs: number }): {
  stop(): Promise<void>;
} {
  const sweep = async () => {
    for (const stream of await deps.streams.listActive()) {
      await deps.starter.start(stream).catch((err: unknown) => deps.log.warn({ streamId: stream.id, err }, 'could not start the audit stream delivery; will retry'));
    }
  };
  return runPeriodically(deps.intervalMs, sweep, (err) => deps.log.warn({ err }, 'audit stream reconciliation failed'));
}
