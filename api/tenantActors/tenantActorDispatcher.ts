import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import type { OutboxCommand } from '../../domain/tenantActor/actorOutbox.ts';
import {
  TASK_QUEUE,
  provisionAndWaitUpdate,
  provisionSignal,
  pushClaimsSignal,
  resendInviteSignal,
  retryProvisioningSignal,
  tenantActorWorkflowId,
  type ProvisioningOutcome,
  type ProvisioningRetryPolicy,
} from '../../workflows/tenantActorMessages.ts';
import type { tenantActorWorkflow } from '../../workflows/tenantActorWorkflow.ts';
import type { CheckResult } from '../readinessChecks.ts';

export interface DispatcherOptions {
  address: string;
  namespace: string;
  taskQueue?: string;
  retry: ProvisioningRetryPolicy;
  /** Upper bound on reaching Temporal for one hand-off; beyond it the outbox relay delivers later. */
  handOffTimeoutMs: number;
}

export type OperatorCommand = 'resendInvite' | 'retryProvisioning';

/** The API side of the tenant actors: starts them on demand (one per tenant, by workflow id) and messages them. */
export class TenantActorDispatcher {
  readonly connection: Connection;
  readonly client: Client;
  readonly options: DispatcherOptions;

  constructor(options: DispatcherOptions) {
    this.options = options;
    // Lazy: the API starts and serves while Temporal is unreachable; hand-offs wait in the outbox meanwhile.
    this.connection = Connection.lazy({ address: options.address });
    this.client = new Client({ connection: this.connection, namespace: options.namespace });
  }

  private startOptions(tenantId: string) {
    return {
      workflowId: tenantActorWorkflowId(tenantId),
      taskQueue: this.options.taskQueue ?? TASK_QUEUE,
      args: [{ tenantId, retry: this.options.retry }] as [Parameters<typeof tenantActorWorkflow>[0]],
      // The workflow id makes the hand-off idempotent: a running actor is reused, never started twice.
      workflowIdConflictPolicy: 'USE_EXISTING' as const,
    };
  }

  private bounded<T>(fn: () => Promise<T>): Promise<T> {
    return this.connection.withDeadline(Date.now() + this.options.handOffTimeoutMs, fn);
  }

  /**
   * Hands provisioning to the tenant's actor and waits up to `waitMs` for its outcome. `onAccepted` runs once
   * Temporal holds the command. Resolves undefined when the wait ran out; rejects when Temporal was unreachable.
   */
  async provisionAndWait(tenantId: string, waitMs: number, onAccepted: () => Promise<void>): Promise<ProvisioningOutcome | undefined> {
    const handle = await this.bounded(() =>
      this.client.workflow.startUpdateWithStart(provisionAndWaitUpdate, {
        waitForStage: 'ACCEPTED',
        startWorkflowOperation: new WithStartWorkflowOperation<typeof tenantActorWorkflow>('tenantActorWorkflow', this.startOptions(tenantId)),
      }),
    );
    await onAccepted();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), waitMs);
    });
    try {
      return await Promise.race([handle.result(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Delivers an outbox command without waiting for its effect (signal-with-start). */
  async deliver(tenantId: string, command: OutboxCommand): Promise<void> {
    const signal = command === 'provision' ? provisionSignal : pushClaimsSignal;
    await this.bounded(() =>
      this.client.workflow.signalWithStart<typeof tenantActorWorkflow, []>('tenantActorWorkflow', {
        ...this.startOptions(tenantId),
        signal,
        signalArgs: [],
      }),
    );
  }

  /** The same signals an operator sends from the Temporal Web UI. */
  async signalOperator(tenantId: string, command: OperatorCommand, requestedBy?: string): Promise<string> {
    const signal = command === 'resendInvite' ? resendInviteSignal : retryProvisioningSignal;
    await this.bounded(() =>
      this.client.workflow.signalWithStart('tenantActorWorkflow', {
        ...this.startOptions(tenantId),
        signal,
        signalArgs: [requestedBy ? { requested_by: requestedBy } : {}],
      }),
    );
    return tenantActorWorkflowId(tenantId);
  }

  async ping(): Promise<CheckResult> {
    await this.connection.withDeadline(Date.now() + 2000, () => this.connection.workflowService.getSystemInfo({}));
    return { status: 'up' };
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
