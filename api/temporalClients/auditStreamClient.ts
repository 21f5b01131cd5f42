import type { Client } from '@temporalio/client';
import type { AuditStreamRecord } from '../../domain/auditStreams/auditStreamRepository.ts';
import { auditStreamWorkflowId } from '../../workflows/auditStream/auditStreamMessages.ts';
import type { auditStreamWorkflow } from '../../workflows/auditStream/auditStreamWorkflow.ts';

/** The API's Temporal client of the audit streams' delivery workflows (one per stream, by workflow id). */
export class AuditStreamClient {
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
