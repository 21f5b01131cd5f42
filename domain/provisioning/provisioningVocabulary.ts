/**
 * The words of provisioning, shared by the tenant actor workflow, its activities, the identity-provider adapters and
 * the simulator (and the API, through the workflow's messages), so a step or a failure kind cannot be spelled twice.
 * Plain TypeScript: the workflow sandbox imports it.
 */

/** The identity-provider steps, in the order they run. */
export const PROVISIONING_STEPS = ['organization', 'user', 'membership', 'invite'] as const;
/** `load` is reading the tenant from the registry, before any provider step. */
export type ProvisioningStep = 'load' | (typeof PROVISIONING_STEPS)[number];

/** The four failure kinds of SPEC.md, plus `rejected` for a request the provider refused for another reason. */
export const IDP_FAILURE_KINDS = ['organization_exists', 'user_exists', 'unauthorized', 'unavailable', 'rejected'] as const;
export type IdpFailureKind = (typeof IDP_FAILURE_KINDS)[number];

/** Only an unavailable provider is worth retrying; every other kind needs an operator first. */
export const isRetryableFailure = (kind: string): boolean => kind === 'unavailable';
export const NON_RETRYABLE_FAILURE_KINDS: string[] = IDP_FAILURE_KINDS.filter((kind) => !isRetryableFailure(kind));

export interface ProvisioningFailure {
  kind: string;
  step: ProvisioningStep;
  message: string;
}

/** `inviteUrl` is answered once, to the request that waited for it (see TenantActor); a later answer has none. */
export type ProvisioningOutcome =
  | { status: 'succeeded'; inviteUrl?: string }
  | ({ status: 'failed' } & ProvisioningFailure)
  | { status: 'not_requested' };

/** What the workflow records in the audit log: an outcome of an actual provisioning run. */
export type RecordedOutcome = Exclude<ProvisioningOutcome, { status: 'not_requested' }>;

/** What provisioning reads of its tenant. */
export interface TenantForProvisioning {
  tenantId: string;
  slug: string;
  name: string;
  adminEmail: string | null;
  adminName: string | null;
}

/** The tenant's organization's name: organization names are unique in the provider while tenant names are not. */
export const organizationNameOf = (tenant: { name: string; slug: string }): string => `${tenant.name} (${tenant.slug})`;

/** What provisioning asks of the provider for one tenant, in one local activity (see runProviderSteps). */
export interface ProviderStepsRequest {
  tenantId: string;
  slug: string;
  /** The organization's name: unique in the provider while tenant names are not, so it carries the slug. */
  organizationName: string;
  adminEmail: string;
  adminName?: string;
  /** The invite ledger's key, so a provisioning run mails its invite once: the actor's first run and the run's count. */
  runKey: string;
  /** The actor's time when the run began: the administrator's invitation expires counting from it. */
  asOf?: number;
}

/** What the provider's steps produced so far: an attempt resumes after the last step done, and repeats none of them. */
export interface ProviderStepsDone {
  organizationId?: string;
  userId?: string;
  member?: true;
  /** The invitation the invite's link opens (made with the member): reused by a later attempt of the run. */
  invitation?: { invitationId: string; nonce: string };
  /** The invite went out (or had gone out in this run before: no link then). */
  invited?: { inviteUrl?: string };
  /** The outbox row of the administrator member's sync, queued with the member: done by the run's claims push. */
  memberSync?: number;
}

/**
 * The details of the failure a failed attempt at the provider's steps throws (an ApplicationFailure typed by its
 * kind): the step it stopped at, the provider's own message, and how far it got.
 */
export interface ProviderStepsStopped {
  step: Exclude<ProvisioningStep, 'load'>;
  message: string;
  done: ProviderStepsDone;
}

/** The step an attempt starting from `done` runs first (pushing the claims counts as part of the invite step). */
export function nextProviderStep(done: ProviderStepsDone): Exclude<ProvisioningStep, 'load'> {
  if (!done.organizationId) return 'organization';
  if (!done.userId) return 'user';
  if (!done.member) return 'membership';
  return 'invite';
}

/** The steps of an invitation's send, in the order they run (`member`: the pending member and its organization membership). */
export const INVITATION_STEPS = ['organization', 'user', 'member', 'invite'] as const;
export type InvitationStep = (typeof INVITATION_STEPS)[number];

/** What an invitation's send came to: the link (for the request that waits), nothing to send, or the failure that ended it. */
export type InvitationSendOutcome =
  | { status: 'sent'; inviteUrl?: string }
  | { status: 'skipped' }
  | { status: 'failed'; kind: string; step: InvitationStep; message: string };

/** What the send's steps produced; the provider's ids name the outcome's event. */
export type InvitationStepsDone =
  | { status: 'sent'; inviteUrl?: string; userId: string; organizationId: string; sendCount: number }
  | { status: 'skipped' };

/** The send's steps and its idp.invitation_sent event in one local activity: when the invitation sent expires, and whether the event was appended. */
export interface InvitationSendRecorded {
  done: InvitationStepsDone;
  expiresAt?: number;
  recorded: boolean;
}

/**
 * A send's event is keyed by the secret it mailed (its send count), as the ledger keys the e-mail: a send redone after
 * a lost workflow task, or handed off twice, appends no second event.
 */
export const sentInvitationOutcomeId = (invitationId: string, sendCount: number): string => `invitation:${invitationId}:sent:${sendCount}`;

/** The details of the failure a failed attempt at the send's steps throws (typed by its kind). */
export interface InvitationStepsStopped {
  step: InvitationStep;
  message: string;
}
