import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { RetryPolicy } from '../../domain/retryPolicy.ts';
import type { TenantActorCommand } from '../../domain/tenantActor/tenantActorCommand.ts';
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
  kind: 'trial_ending' | 'trial_expired' | 'entitlement_expired' | 'invitation_expired' | 'domain_check';
  at: string;
  product?: string;
  invitationId?: string;
  domainId?: string;
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
 * Optional payload of the operator signals; Temporal Web UI may send it empty. The registry's API sends
 * `requested_via: 'api'` with the token's client as `requested_by` and the caller's own words as `note`; a signal
 * without it came through Temporal (Web UI, CLI), its `requested_by` typed by an operator whom Temporal authenticated.
 */
export interface OperatorSignalInput {
  requested_by?: string;
  note?: string;
  requested_via?: 'api';
}

/** Hand-off of provisioning (idempotent: a tenant is provisioned once, whatever the number of hand-offs). */
export const provisionSignal = defineSignal<[]>('provision');
/** Hand-off that also waits: the API's tenant creation uses it through update-with-start. */
export const provisionAndWaitUpdate = defineUpdate<ProvisioningOutcome, []>('provisionAndWait');
/** Operator: run provisioning again after a failure (each step reuses what earlier runs created). */
export const retryProvisioningSignal = defineSignal<[OperatorSignalInput?]>('retryProvisioning');
/** Operator: send the invite e-mail again (provisions first if that never succeeded). */
export const resendInviteSignal = defineSignal<[OperatorSignalInput?]>('resendInvite');
/** The tenant's claims changed: push the current bundle into its users' attributes. */
export const pushClaimsSignal = defineSignal<[]>('pushClaims');
/** Payload of syncMember: the member's user id in the identity provider. */
export interface SyncMemberInput {
  user_id: string;
}

/** A member of the tenant changed: make the provider match its record as it is now (organization, attributes). */
export const syncMemberSignal = defineSignal<[SyncMemberInput]>('syncMember');
/** Payload of sendInvitation: the invitation whose current link is to be sent. */
export interface SendInvitationInput {
  invitation_id: string;
}

/** An invitation was made or resent: send its current link (the registry's outbox). */
export const sendInvitationSignal = defineSignal<[SendInvitationInput]>('sendInvitation');
/** The same, waiting for the outcome: the API's invitation creation and resend use it through update-with-start. */
export const sendInvitationAndWaitUpdate = defineUpdate<InvitationSendOutcome, [SendInvitationInput]>('sendInvitationAndWait');
/** A domain of the tenant changed: set its organization's verified domains, and read the timers again. */
export const syncDomainsSignal = defineSignal<[]>('syncDomains');
/** Payload of syncSso: the SSO connection whose identity provider is to match it. */
export interface SyncSsoInput {
  connection_id: string;
}

/** An SSO connection changed: make its identity provider in the provider match it (made, changed, disabled, deleted). */
export const syncSsoSignal = defineSignal<[SyncSsoInput]>('syncSso');
/** Payload of syncDirectoryUser: a directory's SCIM user whose provider user and member are to match it. */
export interface SyncDirectoryUserInput {
  directory_id: string;
  scim_user_id: string;
}

/** A directory's SCIM user changed: make its identity-provider user and member match it. */
export const syncDirectoryUserSignal = defineSignal<[SyncDirectoryUserInput]>('syncDirectoryUser');
export const actorStateQuery = defineQuery<TenantActorState>('state');
