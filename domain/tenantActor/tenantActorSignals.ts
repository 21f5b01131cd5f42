import type { OperatorCommand } from './tenantActorCommand.ts';

/** The port to the tenant actors for what an operator asks of one (api/temporalClients/tenantActorClient.ts). */
export interface TenantActorSignals {
  /** Delivers the command to the tenant's actor (starting it if needed); answers the actor's workflow id. Throws when unreachable. */
  signalOperator(tenantId: string, command: OperatorCommand): Promise<string>;
}
