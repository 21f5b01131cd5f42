import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import type { OutboxCommand } from '../../domain/tenantActor/actorOutboxRepository.ts';
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
import type { TemporalAccess } from '../../platform/temporal/temporalAccess.ts';

export interface DispatcherOptions {
  temporal: TemporalAccess;
  namespace: string;
  taskQueue?: string;
  retry: ProvisioningRetryPolicy;
  /** Upper bound on reaching Temporal for one hand-off; beyond it the outbox relay delivers later. */
  handOffTimeoutMs: number;
}

export type OperatorCommand = 'resendInvite' | 'retryProvisioning';

/** gRPC status 4, as the client reports a call that ran out of its deadline (also when wrapped by the SDK). */
function isDeadlineExceeded(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === 4 || /DEADLINE_EXCEEDED|deadline exceeded/i.test(e.message)) return true;
  }
  return false;
}

/** The API side of the tenant actors: starts them on demand (one per tenant, by workflow id) and messages them. */
export class TenantActorDispatcher {
  readonly connection: Connection;
  readonly client: Client;
  readonly options: DispatcherOptions;

  constructor(options: DispatcherOptions) {
    this.options = options;
    // Lazy: the API starts and serves while Temporal is unreachable; hand-offs wait in the outbox meanwhile.
    this.connection = Connection.lazy({ address: options.temporal.address, tls: options.temporal.tls });
    this.client = new Client({
      connection: this.connection,
      namespace: options.namespace,
      dataConverter: { payloadCodecs: [options.temporal.payloadCodec] },
      ...(options.temporal.tracing ? { interceptors: { workflow: [new options.temporal.tracing.temporal.OpenTelemetryWorkflowClientInterceptor()] } } : {}),
    });
  }

  private startOptions(tenantId: string) {
    return {
      workflowId: tenantActorWorkflowId(tenantId),
      taskQueue: this.options.taskQueue ?? TASK_QUEUE,
      args: [{ tenantId, retry: this.options.retry, localProvisioningSteps: true }] as [Parameters<typeof tenantActorWorkflow>[0]],
      // The workflow id makes the hand-off idempotent: a running actor is reused, never started twice.
      workflowIdConflictPolicy: 'USE_EXISTING' as const,
    };
  }

  private bounded<T>(fn: () => Promise<T>): Promise<T> {
    return this.connection.withDeadline(Date.now() + this.options.handOffTimeoutMs, fn);
  }

  /**
   * Hands provisioning to the tenant's actor and waits up to `waitMs` for its outcome, in one call (update-with-start
   * waiting for completion): the actor runs the steps as local activities within one workflow task, so Temporal
   * accepts the update only as that task completes, and a separate accept-then-wait would add nothing but a round
   * trip. `onDelivered` runs once the outcome is known. Resolves undefined when the wait ran out (Temporal may hold
   * the command or not: the outbox relay delivers it again, which is idempotent); rejects when Temporal refused or
   * was unreachable.
   */
  async provisionAndWait(tenantId: string, waitMs: number, onDelivered: () => Promise<void>): Promise<ProvisioningOutcome | undefined> {
    let outcome: ProvisioningOutcome;
    try {
      outcome = await this.connection.withDeadline(Date.now() + waitMs, () =>
        this.client.workflow.executeUpdateWithStart(provisionAndWaitUpdate, {
          startWorkflowOperation: new WithStartWorkflowOperation<typeof tenantActorWorkflow>('tenantActorWorkflow', this.startOptions(tenantId)),
        }),
      );
    } catch (error) {
      if (isDeadlineExceeded(error)) return undefined;
      throw error;
    }
    await onDelivered();
    return outcome;
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
