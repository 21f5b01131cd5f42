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
  /**
   * A member of the tenant changed (added, its roles, deactivated, reactivated, removed): make the identity provider
   * match the member's record as it is now (organization membership, the user's pushed attributes).
   */
  | { kind: 'syncMember'; userId: string }
  /**
   * An invitation was made or resent: make or find its user in the identity provider, make it a pending member in
   * the tenant's organization, and send the link of the invitation's current secret (once per secret).
   */
  | { kind: 'sendInvitation'; invitationId: string }
  /** A domain of the tenant was added, checked or removed: its organization gets the verified ones; its timers are read again. */
  | { kind: 'syncDomains' }
  /** An SSO connection was made, changed or deleted: its identity provider in the provider made to match it. */
  | { kind: 'syncSso'; connectionId: string }
  /** A SCIM user of a directory was made, changed or deleted: its identity-provider user and member made to match it. */
  | { kind: 'syncDirectoryUser'; directoryId: string; scimUserId: string }
  /** Operator: run provisioning again after a failure. */
  | ({ kind: 'retryProvisioning' } & OperatorRequest)
  /** Operator: send the invite again (provisions first if that never succeeded). */
  | ({ kind: 'resendInvite' } & OperatorRequest);

/** Who asked for an operator's command, as the outcome's audit event records it. */
export interface OperatorRequest {
  /**
   * Through the API the token's client, which the registry authenticated (absent with authentication off); through
   * Temporal (Web UI, CLI) the name the operator typed, whom Temporal authenticated.
   */
  requestedBy?: string;
  /** Through the API, the `requested_by` of the caller's body: what the caller says about itself, kept as a note only. */
  note?: string;
  requestedVia: 'api' | 'temporal';
}

export type TenantActorCommandKind = TenantActorCommand['kind'];

/** The commands a change writes to the outbox in its transaction. */
export type OutboxCommand = Extract<TenantActorCommand, { kind: 'provision' | 'pushClaims' | 'syncMember' | 'sendInvitation' | 'syncDomains' | 'syncSso' | 'syncDirectoryUser' }>;

/** The commands an operator sends. */
export type OperatorCommand = Extract<TenantActorCommand, { kind: 'retryProvisioning' | 'resendInvite' }>;

export const OPERATOR_COMMAND_KINDS = ['retryProvisioning', 'resendInvite'] as const satisfies readonly OperatorCommand['kind'][];
