import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import type { OperatorRequest } from '../../domain/tenantActor/tenantActorCommand.ts';
import type { InvitationStep, RecordedOutcome } from '../../domain/provisioning/provisioningVocabulary.ts';
import type { ActorActivityContext } from './actorActivityContext.ts';

/** What an outcome event names besides the outcome: the provider's ids known so far, and who asked, if an operator did. */
export interface OutcomeContext {
  userId?: string;
  organizationId?: string;
  request?: OperatorRequest;
}

/** What an invitation's send came to, as its event records it. */
export type InvitationSendEvent = { status: 'sent' } | { status: 'failed'; kind: string; step: InvitationStep; message: string };

/** A sync's failure, as its event records it. */
interface SyncFailure {
  kind: string;
  message: string;
}

/**
 * Who asked, in the outcome event: `requested_by` the requester (the token's client through the API), `note` what an
 * API caller said of itself, `requested_via` whether the registry or Temporal authenticated the requester.
 */
function requestMetadata({ requested_by, note, requested_via }: OperatorRequest): Record<string, string> {
  return { ...(requested_by ? { requested_by } : {}), ...(note ? { note } : {}), requested_via };
}

/**
 * Appends idp.invite_sent or idp.provision_failed. `outcomeId` makes it idempotent: an activity retried after its
 * insert committed does not append the event twice.
 */
async function recordProvisioningOutcome(
  { stores, metrics }: ActorActivityContext,
  tenantId: string,
  outcome: RecordedOutcome,
  outcomeId: string,
  resend = false,
  context: OutcomeContext = {},
): Promise<void> {
  const metadata: Record<string, unknown> = { outcome_id: outcomeId, resend };
  // The provider's ids lead from the tenant to GET /v1/users/{id}/memberships.
  if (context.userId) metadata.user_id = context.userId;
  if (context.organizationId) metadata.organization_id = context.organizationId;
  if (context.request) Object.assign(metadata, requestMetadata(context.request));
  if (outcome.status === 'failed') Object.assign(metadata, { kind: outcome.kind, step: outcome.step, message: outcome.message });
  metrics?.provisioningOutcomes.inc({
    command: resend ? 'resend' : 'provision',
    outcome: outcome.status,
    step: outcome.status === 'failed' ? outcome.step : 'none',
    kind: outcome.status === 'failed' ? outcome.kind : 'none',
  });
  await stores.audit.appendOutcomeOnce(
    {
      action: outcome.status === 'succeeded' ? 'idp.invite_sent' : 'idp.provision_failed',
      tenant_id: tenantId,
      target_id: tenantId,
      target_type: 'tenant',
      metadata: { ...metadata, outcome_id: outcomeId },
    },
    SYSTEM_ACTOR,
  );
}

/**
 * Appends idp.invitation_sent or idp.invitation_failed for one send of an invitation (`outcomeId` makes it
 * idempotent), with the provider's ids when known.
 */
export async function recordInvitationOutcome(
  { stores, metrics }: ActorActivityContext,
  tenantId: string,
  invitationId: string,
  outcome: InvitationSendEvent,
  outcomeId: string,
  context: { userId?: string; organizationId?: string; sendCount?: number } = {},
): Promise<void> {
  const metadata: Record<string, unknown> & { outcome_id: string } = { outcome_id: outcomeId, invitation_id: invitationId };
  if (context.userId) metadata.user_id = context.userId;
  if (context.organizationId) metadata.organization_id = context.organizationId;
  if (context.sendCount !== undefined) metadata.send_count = context.sendCount;
  if (outcome.status === 'failed') Object.assign(metadata, { kind: outcome.kind, step: outcome.step, message: outcome.message });
  await stores.audit.appendOutcomeOnce(
    {
      action: outcome.status === 'sent' ? 'idp.invitation_sent' : 'idp.invitation_failed',
      tenant_id: tenantId,
      target_id: invitationId,
      target_type: 'invitation',
      metadata,
    },
    SYSTEM_ACTOR,
  );
  // Counted once appended: an append that failed is made again by the actor.
  metrics?.provisioningOutcomes.inc({
    command: 'invitation',
    outcome: outcome.status === 'sent' ? 'succeeded' : 'failed',
    step: outcome.status === 'failed' ? outcome.step : 'none',
    kind: outcome.status === 'failed' ? outcome.kind : 'none',
  });
}

/**
 * Appends idp.domain_sync_failed, idp.sso_sync_failed or idp.directory_sync_failed once per failing streak of a sync
 * of the organization's domains, of an SSO connection's identity provider or of a SCIM user (`outcomeId` names it).
 */
async function recordProviderSyncFailure(
  { stores, metrics }: ActorActivityContext,
  tenantId: string,
  what: 'domain' | 'sso' | 'directory',
  failure: SyncFailure,
  outcomeId: string,
  targetId?: string,
): Promise<void> {
  await stores.audit.appendOutcomeOnce(
    {
      action: `idp.${what}_sync_failed`,
      tenant_id: tenantId,
      target_id: targetId ?? tenantId,
      target_type: what === 'sso' ? 'sso_connection' : what === 'directory' ? 'directory_user' : 'tenant',
      metadata: { outcome_id: outcomeId, kind: failure.kind, message: failure.message },
    },
    SYSTEM_ACTOR,
  );
  // Counted once appended: an append that failed is made again by the actor.
  metrics?.providerSyncFailures.inc({ sync: what });
}

/** Appends idp.member_sync_failed once per failing streak of one member's sync (`outcomeId` names it). */
async function recordMemberSyncFailure({ stores, metrics }: ActorActivityContext, tenantId: string, userId: string, failure: SyncFailure & { attempts: number }, outcomeId: string): Promise<void> {
  await stores.audit.appendOutcomeOnce(
    {
      action: 'idp.member_sync_failed',
      tenant_id: tenantId,
      target_id: userId,
      target_type: 'member',
      metadata: { outcome_id: outcomeId, user_id: userId, kind: failure.kind, message: failure.message, attempts: failure.attempts },
    },
    SYSTEM_ACTOR,
  );
  metrics?.providerSyncFailures.inc({ sync: 'member' });
}

/** Appends idp.claims_push_failed once per failing streak (`outcomeId` names it). */
async function recordClaimsPushFailure({ stores, metrics }: ActorActivityContext, tenantId: string, failure: SyncFailure & { attempts: number }, outcomeId: string): Promise<void> {
  await stores.audit.appendOutcomeOnce(
    {
      action: 'idp.claims_push_failed',
      tenant_id: tenantId,
      target_id: tenantId,
      target_type: 'tenant',
      metadata: { outcome_id: outcomeId, kind: failure.kind, message: failure.message, attempts: failure.attempts },
    },
    SYSTEM_ACTOR,
  );
  metrics?.providerSyncFailures.inc({ sync: 'claims_push' });
}

/**
 * The outcomes family's activities: each command's outcome, or its failing streak's first failure, appended to the
 * audit log once per outcome id (appendOutcomeOnce), so a retried activity or a redone command appends it once.
 */
export const outcomeActivities = (context: ActorActivityContext) => ({
  recordProvisioningOutcome: (tenantId: string, outcome: RecordedOutcome, outcomeId: string, resend?: boolean, outcomeContext?: OutcomeContext) =>
    recordProvisioningOutcome(context, tenantId, outcome, outcomeId, resend, outcomeContext),
  recordInvitationOutcome: (tenantId: string, invitationId: string, outcome: InvitationSendEvent, outcomeId: string, sent?: { userId?: string; organizationId?: string; sendCount?: number }) =>
    recordInvitationOutcome(context, tenantId, invitationId, outcome, outcomeId, sent),
  recordProviderSyncFailure: (tenantId: string, what: 'domain' | 'sso' | 'directory', failure: SyncFailure, outcomeId: string, targetId?: string) =>
    recordProviderSyncFailure(context, tenantId, what, failure, outcomeId, targetId),
  recordMemberSyncFailure: (tenantId: string, userId: string, failure: SyncFailure & { attempts: number }, outcomeId: string) =>
    recordMemberSyncFailure(context, tenantId, userId, failure, outcomeId),
  recordClaimsPushFailure: (tenantId: string, failure: SyncFailure & { attempts: number }, outcomeId: string) => recordClaimsPushFailure(context, tenantId, failure, outcomeId),
});
