import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import type { TenantActorSignals } from '../../domain/tenantActor/tenantActorSignals.ts';
import type { CommandOf, OperatorCommand, TenantActorCommand } from '../../domain/tenantActor/tenantActorCommand.ts';
import type { RetryPolicy } from '../../domain/retryPolicy.ts';
import type { Logger } from '../../platform/logger.ts';
import {
  provisionAndWaitUpdate,
  sendInvitationAndWaitUpdate,
  tenantActorWorkflowId,
  type InvitationSendOutcome,
  type ProvisioningOutcome,
} from '../../workflows/tenantActor/tenantActorMessages.ts';
import type { tenantActorWorkflow } from '../../workflows/tenantActor/tenantActorWorkflow.ts';
import type { CheckResult } from '../readinessChecks.ts';
import type { TemporalAccess } from '../../platform/temporal/temporalAccess.ts';

export interface TenantActorClientOptions {
  temporal: TemporalAccess;
  namespace: string;
  taskQueue: string;
  retry: RetryPolicy;
  /** Upper bound on reaching Temporal for one hand-off; beyond it the outbox relay delivers later. */
  handOffTimeoutMs: number;
  log: Logger;
}

/** gRPC status 4, as the client reports a call that ran out of its deadline (also when wrapped by the SDK). */
function isDeadlineExceeded(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === 4 || /DEADLINE_EXCEEDED|deadline exceeded/i.test(e.message)) return true;
  }
  return false;
}

/** The API's Temporal client of the tenant actors: starts them on demand (one per tenant, by workflow id) and messages them. */
export class TenantActorClient implements TenantActorSignals {
  readonly connection: Connection;
  readonly client: Client;
  readonly options: TenantActorClientOptions;

  constructor(options: TenantActorClientOptions) {
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
      taskQueue: this.options.taskQueue,
      args: [{ tenantId, retry: this.options.retry }] as [Parameters<typeof tenantActorWorkflow>[0]],
      // The workflow id makes the hand-off idempotent: a running actor is reused, never started twice.
      workflowIdConflictPolicy: 'USE_EXISTING' as const,
    };
  }

  /**
   * Hands provisioning to the tenant's actor and waits up to `waitMs` for its outcome, in one call (update-with-start
   * waiting for completion): the actor runs the steps as local activities within one workflow task, so Temporal
   * accepts the update only as that task completes, and a separate accept-then-wait would add nothing but a round
   * trip. Resolves undefined when the wait ran out (Temporal may hold the command or not: the outbox relay delivers
   * it again, which is idempotent); rejects when Temporal refused or was unreachable.
   */
  async provisionAndWait(tenantId: string, waitMs: number): Promise<ProvisioningOutcome | undefined> {
    try {
      return await this.connection.withDeadline(Date.now() + waitMs, () =>
        this.client.workflow.executeUpdateWithStart(provisionAndWaitUpdate, {
          startWorkflowOperation: new WithStartWorkflowOperation<typeof tenantActorWorkflow>('tenantActorWorkflow', this.startOptions(tenantId)),
        }),
      );
    } catch (error) {
      if (isDeadlineExceeded(error)) return undefined;
      throw error;
    }
  }

  /**
   * Hands an invitation's send to the tenant's actor and waits up to `waitMs` for its outcome (update-with-start, as
   * provisionAndWait). Undefined when the wait ran out; rejects when Temporal refused or was unreachable.
   */
  async sendInvitationAndWait(tenantId: string, command: CommandOf<'sendInvitation'>, waitMs: number): Promise<InvitationSendOutcome | undefined> {
    try {
      return await this.connection.withDeadline(Date.now() + waitMs, () =>
        this.client.workflow.executeUpdateWithStart(sendInvitationAndWaitUpdate, {
          args: [command],
          startWorkflowOperation: new WithStartWorkflowOperation<typeof tenantActorWorkflow>('tenantActorWorkflow', this.startOptions(tenantId)),
        }),
      );
    } catch (error) {
      if (isDeadlineExceeded(error)) return undefined;
      throw error;
    }
  }

  /**
   * Delivers a command without waiting for its effect (signal-with-start: the signal named by its kind, the command
   * its argument, as commandSignal defines it), bounded by the hand-off timeout.
   */
  async deliver(tenantId: string, command: TenantActorCommand): Promise<void> {
    await this.connection.withDeadline(Date.now() + this.options.handOffTimeoutMs, () =>
      this.client.workflow.signalWithStart<typeof tenantActorWorkflow, [TenantActorCommand]>('tenantActorWorkflow', {
        ...this.startOptions(tenantId),
        signal: command.kind,
        signalArgs: [command],
      }),
    );
  }

  /** The signals an operator sends from the Temporal Web UI, with who asked; answers the actor's workflow id. */
  async signalOperator(tenantId: string, command: OperatorCommand): Promise<string> {
    try {
      await this.deliver(tenantId, command);
    } catch (error) {
      this.options.log.warn({ err: error, tenantId, command: command.kind }, 'operator signal failed');
      throw error;
    }
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
