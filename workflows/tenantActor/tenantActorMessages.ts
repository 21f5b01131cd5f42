import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { RetryPolicy } from '../../domain/retryPolicy.ts';
import type { CommandOf, TenantActorCommand, TenantActorCommandKind } from '../../domain/tenantActor/tenantActorCommand.ts';
import type { InvitationSendOutcome, ProvisioningFailure, ProvisioningOutcome } from '../../domain/provisioning/provisioningVocabulary.ts';

/**
 * Shared by the workflow and its clients (API, operators' docs) so names and payloads cannot drift apart. The task
 * queue is a setting (TEMPORAL_TASK_QUEUE), the same for the API and the worker.
 */
export const tenantActorWorkflowId = (tenantId: string) => `tenant-${tenantId}`;

export type { InvitationSendOutcome, ProvisioningOutcome, ProvisioningStep } from '../../domain/provisioning/provisioningVocabulary.ts';

/** How the provider's steps retry an `unavailable` provider before provisioning counts as failed (PROVISIONING_RETRY_*). */
export type ProvisioningRetryPolicy = RetryPolicy;

export interface TenantActorState {
  provisioning: 'idle' | 'running' | 'succeeded' | 'failed' | 'not_requested';
  organizationId?: string;
  userId?: string;
  failure?: ProvisioningFailure;
  /** Provisioning runs so far, including operator retries. */
  runs: number;
  /** The tenant's status and its scheduled lifecycle events, soonest first, as the actor last read them. */
  timeline?: { status: string | null; upcoming: ScheduledLifecycleEvent[] };
  /** Set while pushing the claims into the tenant's users fails: retried with backoff until it succeeds. */
  claimsPush?: { attempts: number; kind: string; lastError: string; retryAt: string };
  /** The members whose sync with the provider failed, by user id, until one succeeds. */
  memberSync?: Record<string, MemberSyncFailure>;
  /** The directories' SCIM users whose sync failed, by SCIM user id, until one succeeds (a leaver is never dropped). */
  directorySync?: Record<string, DirectorySyncFailure>;
}

/** A SCIM user's sync that failed, retried as a member's sync is. */
export interface DirectorySyncFailure extends MemberSyncFailure {
  directoryId: string;
}

/** A member's sync that failed, `attempts` times in a row so far. */
export interface MemberSyncFailure {
  kind: string;
  message: string;
  attempts: number;
  /** When the actor tries again (an unavailable provider); absent: the kind needs an operator, whose retryProvisioning runs it again. */
  retryAt?: string;
}

/** A lifecycle event the actor has a timer for (see domain/tenants/lifecycleTimeline.ts), its time as ISO 8601. */
export interface ScheduledLifecycleEvent {
  kind: 'trial_ending' | 'trial_expired' | 'entitlement_expired' | 'invitation_expired' | 'domain_check' | 'sso_metadata_refresh' | 'sso_certificate_notice' | 'audit_retention';
  at: string;
  product?: string;
  invitationId?: string;
  domainId?: string;
  /** A SAML connection's: its metadata URL's next reading, or its certificates' next expiry notice. */
  connectionId?: string;
}

export interface TenantActorInput {
  tenantId: string;
  retry: ProvisioningRetryPolicy;
  /** Carried across continue-as-new: the state, and the commands not handled yet (an operator's with who asked). */
  state?: TenantActorState;
  pending?: TenantActorCommand[];
  /** Commands handled before continuing as new; default 200. */
  maxCommandsPerRun?: number;
  /** History events of a run before it continues as new once nothing is queued; default 100. */
  historyEventsPerRun?: number;
}

/**
 * The signal a command travels as: named by its kind, the command (domain/tenantActor/tenantActorCommand.ts) its
 * argument. The registry sends the whole command; an operator in the Temporal Web UI may send its fields only
 * (`retryProvisioning` with `{"requested_by": …}`), or nothing.
 */
export const commandSignal = <K extends TenantActorCommandKind>(kind: K) => defineSignal<[Partial<CommandOf<K>>?]>(kind);
/** A `provision` that also waits for the outcome: the API's tenant creation sends it through update-with-start. */
export const provisionAndWaitUpdate = defineUpdate<ProvisioningOutcome, []>('provisionAndWait');
/** A `sendInvitation` that also waits for the outcome: the API's invitation creation and resend send it through update-with-start. */
export const sendInvitationAndWaitUpdate = defineUpdate<InvitationSendOutcome, [CommandOf<'sendInvitation'>]>('sendInvitationAndWait');
export const actorStateQuery = defineQuery<TenantActorState>('state');
