/**
 * What a tenant's actor can be asked to do: the one vocabulary of the outbox (a row's payload is the command a change
 * handed off in its transaction), of the signals (each command travels as the signal named by its kind, the command
 * its argument) and of the actor's own queue. One form everywhere, translated nowhere. Its fields are spelled as the
 * registry's JSON is, which is also what an operator types in the Temporal Web UI (`{"requested_by": …}`).
 *
 * Plain TypeScript, no schema library: the workflow sandbox imports it, and its bundle stays small. A new command is
 * its entry in COMMANDS, its handler in its family (workflows/tenantActor/families/) and its test.
 */
const COMMANDS = {
  /** Provision the tenant's IT_ADMIN (idempotent: a tenant is provisioned once, whatever the number of hand-offs). */
  provision: {},
  /** The tenant's claims changed: push the current bundle into its users' attributes (queued pushes collapse). */
  pushClaims: {},
  /**
   * A member of the tenant changed (added, its roles, deactivated, reactivated, removed): make the identity provider
   * match the member's record as it is now (organization membership, the user's pushed attributes).
   */
  syncMember: { user_id: 'id' },
  /**
   * An invitation was made or resent: make or find its user in the identity provider, make it a pending member in
   * the tenant's organization, and send the link of the invitation's current secret (once per secret).
   */
  sendInvitation: { invitation_id: 'id' },
  /** A domain of the tenant was added, checked or removed: its organization gets the verified ones; its timers are read again. */
  syncDomains: {},
  /** An SSO connection was made, changed or deleted: its identity provider in the provider made to match it. */
  syncSso: { connection_id: 'id' },
  /** A SCIM user of a directory was made, changed or deleted: its identity-provider user and member made to match it. */
  syncDirectoryUser: { directory_id: 'id', scim_user_id: 'id' },
  /** Operator: run provisioning again after a failure, and every member or directory sync that failed. */
  retryProvisioning: 'operator',
  /** Operator: send the invite again (provisions first if that never succeeded). */
  resendInvite: 'operator',
} as const satisfies Record<string, Record<string, 'id'> | 'operator'>;

/** Who asked for an operator's command, as its outcome event records it. */
export interface OperatorRequest {
  /**
   * Through the API the token's client, which the registry authenticated (absent with authentication off); through
   * Temporal (Web UI, CLI) the name the operator typed, whom Temporal authenticated.
   */
  requested_by?: string;
  /** Through the API, the `requested_by` of the caller's body: what the caller says about itself, kept as a note only. */
  note?: string;
  /** `api` from the registry's API (sendOperatorCommand); a command without it came through Temporal. */
  requested_via: 'api' | 'temporal';
}

type Commands = typeof COMMANDS;
export type TenantActorCommandKind = keyof Commands;
/** An `id` field is a non-empty string; an operator's command carries who asked. */
type FieldsOf<Spec> = Spec extends 'operator' ? OperatorRequest : { -readonly [F in keyof Spec]: string };
/** The command of kind K (of each kind, for a union of kinds). */
export type CommandOf<K extends TenantActorCommandKind> = K extends TenantActorCommandKind ? Flat<{ kind: K } & FieldsOf<Commands[K]>> : never;
type Flat<T> = { [P in keyof T]: T[P] };
export type TenantActorCommand = { [K in TenantActorCommandKind]: CommandOf<K> }[TenantActorCommandKind];
type OperatorKind = { [K in TenantActorCommandKind]: Commands[K] extends 'operator' ? K : never }[TenantActorCommandKind];
/** The commands an operator sends (through the API's twins of the signals, or the Temporal Web UI). */
export type OperatorCommand = CommandOf<OperatorKind>;
/** The commands a change writes to the outbox in its transaction. */
export type OutboxCommand = CommandOf<Exclude<TenantActorCommandKind, OperatorKind>>;

/** Every kind, each the name of the signal its command travels as. */
export const TENANT_ACTOR_COMMAND_KINDS = Object.keys(COMMANDS) as TenantActorCommandKind[];

/**
 * The command a signal named `kind` carries: its argument read as that kind's command, without fields the command
 * does not have (the signal's name is its kind, so a Web UI operator may leave `kind` out). Undefined when an id is
 * missing. An operator's field typed wrongly is left out, and the command still runs.
 */
export function commandOf<K extends TenantActorCommandKind>(kind: K, input: unknown): CommandOf<K> | undefined {
  const given = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const spec: Record<string, 'id'> | 'operator' = COMMANDS[kind];
  if (spec === 'operator') {
    const text = (field: string) => (typeof given[field] === 'string' ? { [field]: given[field] } : {});
    const request: OperatorRequest = { ...text('requested_by'), ...text('note'), requested_via: given.requested_via === 'api' ? 'api' : 'temporal' };
    return { kind, ...request } as unknown as CommandOf<K>;
  }
  const command: Record<string, unknown> = { kind };
  for (const field of Object.keys(spec)) {
    const value = given[field];
    if (typeof value !== 'string' || value === '') return undefined;
    command[field] = value;
  }
  return command as unknown as CommandOf<K>;
}
