import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { WebhookEndpointRecord } from '../../domain/webhooks/webhookEndpointRepository.ts';
import { webhookDeliveryWorkflowId, webhookWakeSignal, type WebhookDeliveryInput } from '../../workflows/webhookDelivery/webhookDeliveryMessages.ts';
import type { webhookDeliveryWorkflow } from '../../workflows/webhookDelivery/webhookDeliveryWorkflow.ts';

/** The API's Temporal client of the webhook endpoints' delivery workflows (one per endpoint, by workflow id). */
export class WebhookDeliveryClient {
  readonly #client: Client;
  readonly #taskQueue: string;
  readonly #timeoutMs: number;

  constructor(client: Client, taskQueue: string, timeoutMs: number) {
    this.#client = client;
    this.#taskQueue = taskQueue;
    this.#timeoutMs = timeoutMs;
  }

  #input(endpoint: WebhookEndpointRecord): WebhookDeliveryInput {
    return { endpointId: endpoint.id, afterSequence: endpoint.lastDeliveredSequence, replayGeneration: endpoint.replayGeneration };
  }

  /** Idempotent: a running delivery is left as it is (its backoff too); one that ended starts again where the row stands. */
  async start(endpoint: WebhookEndpointRecord): Promise<void> {
    await this.#client.connection.withDeadline(Date.now() + this.#timeoutMs, () =>
      this.#client.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
        workflowId: webhookDeliveryWorkflowId(endpoint.id),
        taskQueue: this.#taskQueue,
        args: [this.#input(endpoint)],
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    );
  }

  /**
   * Tells the delivery of a change: an enabled endpoint's delivery is started if it is not running, and woken from a
   * backoff if it is; a disabled or deleted one's is woken only, so it sees the change and ends.
   */
  async wake(endpoint: WebhookEndpointRecord): Promise<void> {
    const workflowId = webhookDeliveryWorkflowId(endpoint.id);
    await this.#client.connection.withDeadline(Date.now() + this.#timeoutMs, async () => {
      if (endpoint.deletedAt === null && endpoint.state !== 'disabled') {
        await this.#client.workflow.signalWithStart<typeof webhookDeliveryWorkflow, []>('webhookDeliveryWorkflow', {
          workflowId,
          taskQueue: this.#taskQueue,
          args: [this.#input(endpoint)],
          signal: webhookWakeSignal,
          signalArgs: [],
        });
        return;
      }
      await this.#client.workflow
        .getHandle(workflowId)
        .signal(webhookWakeSignal)
        .catch((error: unknown) => {
          if (!(error instanceof WorkflowNotFoundError)) throw error;
        });
    });
  }
}
