/**
 * What a tenant's actor can be asked to do: the one vocabulary of the outbox (what a change hands off in its
 * transaction), the operators' signals (the API's twins and the Temporal Web UI) and the actor's own queue.
 * Plain TypeScript: the workflow sandbox imports it.
 */
export type TenantActorCommand =
  /** Provision the tenant's IT_ADMIN (idempotent: a tenant is provisioned once, whatever the number of hand-offs). */
  | { kind: 'provision' }
  /** The tenant's claims changed: push the current bundle into its users' attributes (queued pushes collapse). */
  | { kind: 'pushClaims' }
  /** Operator: run provisioning again after a failure; `requestedBy` names the caller for the outcome's audit event. */
  | { kind: 'retryProvisioning'; requestedBy?: string }
  /** Operator: send the invite again (provisions first if that never succeeded). */
  | { kind: 'resendInvite'; requestedBy?: string };

export type TenantActorCommandKind = TenantActorCommand['kind'];

/** The commands a change writes to the outbox in its transaction. */
export type OutboxCommand = Extract<TenantActorCommand, { kind: 'provision' | 'pushClaims' }>;

/** The commands an operator sends. */
export type OperatorCommand = Extract<TenantActorCommand, { kind: 'retryProvisioning' | 'resendInvite' }>;

export const OPERATOR_COMMAND_KINDS = ['retryProvisioning', 'resendInvite'] as const satisfies readonly OperatorCommand['kind'][];
