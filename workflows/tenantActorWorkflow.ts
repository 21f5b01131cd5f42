import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { TenantActivities } from '../activities/tenantActivities.ts';
import {
  actorStateQuery,
  provisionAndWaitUpdate,
  provisionSignal,
  pushClaimsSignal,
  resendInviteSignal,
  retryProvisioningSignal,
  type ActorCommand,
  type ProvisioningOutcome,
  type ProvisioningStep,
  type TenantActorInput,
  type TenantActorState,
} from './tenantActorMessages.ts';
import { NON_RETRYABLE_FAILURE_KINDS } from './provisioningVocabulary.ts';

/** Keeps each run's history small; a long-lived actor continues as new well before Temporal's own suggestion. */
const MAX_COMMANDS_PER_RUN = 200;
/**
 * The actor of one tenant: owns every identity-provider side effect of that tenant and runs them one at a time,
 * in the order the commands arrived. Handlers only enqueue; the main loop does the work.
 */
export async function tenantActorWorkflow(input: TenantActorInput): Promise<void> {
  const state: TenantActorState = input.state ?? { provisioning: 'idle', runs: 0 };
  const queue: ActorCommand[] = [...(input.pending ?? [])];

  const idpRetry = {
    initialInterval: input.retry.initialIntervalMs,
    backoffCoefficient: input.retry.backoffCoefficient,
    maximumInterval: input.retry.maximumIntervalMs,
    maximumAttempts: input.retry.maximumAttempts,
    nonRetryableErrorTypes: NON_RETRYABLE_FAILURE_KINDS,
  };
  const idp = proxyActivities<TenantActivities>({ startToCloseTimeout: '30 seconds', retry: idpRetry });
  // The registry's own database: retried until it answers, an outcome must never be dropped.
  const storeRetry = { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: ['tenant_not_found'] };
  const store = proxyActivities<TenantActivities>({ startToCloseTimeout: '30 seconds', retry: storeRetry });
  // The same activities with the same timeouts and retries, as local activities (input.localProvisioningSteps).
  const localIdp = proxyLocalActivities<TenantActivities>({ startToCloseTimeout: '30 seconds', retry: idpRetry });
  const localStore = proxyLocalActivities<TenantActivities>({ startToCloseTimeout: '30 seconds', retry: storeRetry });

  const outcome = (): ProvisioningOutcome | undefined => {
    if (state.provisioning === 'succeeded') return { status: 'succeeded', inviteUrl: state.inviteUrl! };
    if (state.provisioning === 'failed') return { status: 'failed', ...state.failure! };
    if (state.provisioning === 'not_requested') return { status: 'not_requested' };
    return undefined;
  };
  const enqueue = (command: ActorCommand): void => {
    queue.push(command);
  };

  setHandler(provisionSignal, () => enqueue('provision'));
  setHandler(provisionAndWaitUpdate, async () => {
    enqueue('provision');
    await condition(() => !queue.includes('provision') && outcome() !== undefined);
    return outcome()!;
  });
  setHandler(retryProvisioningSignal, () => enqueue('retryProvisioning'));
  setHandler(resendInviteSignal, () => enqueue('resendInvite'));
  setHandler(pushClaimsSignal, () => enqueue('pushClaims'));
  setHandler(actorStateQuery, () => state);

  async function provision(): Promise<void> {
    state.provisioning = 'running';
    state.runs += 1;
    let step: ProvisioningStep = 'load';
    // Decided by the actor's input, so a history replays the way it ran: actors started before this option existed
    // run (and replay) their provisioning as regular activities.
    const local = input.localProvisioningSteps === true;
    const steps = local ? localIdp : idp;
    const db = local ? localStore : store;
    try {
      const tenant = await db.loadTenantForProvisioning(input.tenantId);
      if (!tenant.adminEmail) {
        state.provisioning = 'not_requested';
        return;
      }
      // Organization names are unique in the provider while tenant names are not: the slug disambiguates.
      const ref = { tenantId: tenant.tenantId, slug: tenant.slug, name: `${tenant.name} (${tenant.slug})` };
      step = 'organization';
      const { organizationId } = await steps.ensureOrganization(ref);
      state.organizationId = organizationId;
      step = 'user';
      const { userId } = await steps.ensureUser(ref, tenant.adminEmail, tenant.adminName ?? undefined);
      state.userId = userId;
      step = 'membership';
      await steps.ensureMembership(organizationId, userId);
      step = 'invite';
      const { inviteUrl } = await steps.sendInvite(userId);
      // Claims first, so the user's first token already carries the tenant's bundle.
      await steps.pushTenantClaims(input.tenantId);
      state.provisioning = 'succeeded';
      state.inviteUrl = inviteUrl;
      state.failure = undefined;
      await db.recordProvisioningOutcome(input.tenantId, { status: 'succeeded', inviteUrl }, outcomeId('provision'));
    } catch (error) {
      state.provisioning = 'failed';
      state.failure = { kind: failureKind(error), step, message: failureMessage(error) };
      await db.recordProvisioningOutcome(input.tenantId, { status: 'failed', ...state.failure }, outcomeId('provision'));
    }
  }

  async function resendInvite(): Promise<void> {
    if (state.provisioning !== 'succeeded' || !state.userId) return provision();
    try {
      const { inviteUrl } = await idp.sendInvite(state.userId);
      state.inviteUrl = inviteUrl;
      await store.recordProvisioningOutcome(input.tenantId, { status: 'succeeded', inviteUrl }, outcomeId('resend'), true);
    } catch (error) {
      const failure = { kind: failureKind(error), step: 'invite' as const, message: failureMessage(error) };
      await store.recordProvisioningOutcome(input.tenantId, { status: 'failed', ...failure }, outcomeId('resend'), true);
    }
  }

  let handled = 0;
  const outcomeId = (what: string) => `${workflowInfo().runId}:${handled}:${what}`;
  const shouldContinueAsNew = () => handled >= (input.maxCommandsPerRun ?? MAX_COMMANDS_PER_RUN) || workflowInfo().continueAsNewSuggested;

  for (;;) {
    await condition(() => queue.length > 0 || shouldContinueAsNew());
    // Only with an empty queue: a waiting provisionAndWait update must see its command handled first.
    if (queue.length === 0) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof tenantActorWorkflow>({ ...input, state, pending: queue });
    }
    const command = queue.shift()!;
    handled += 1;
    switch (command) {
      case 'provision':
        // A hand-off repeated for any reason never provisions twice.
        if (state.provisioning === 'idle') await provision();
        break;
      case 'retryProvisioning':
        if (state.provisioning === 'failed' || state.provisioning === 'idle') await provision();
        break;
      case 'resendInvite':
        await resendInvite();
        break;
      case 'pushClaims':
        // Queued pushes collapse into one: each push sends the bundle as it is now.
        while (queue[0] === 'pushClaims') queue.shift();
        await pushClaimsSafely();
        break;
    }
  }

  async function pushClaimsSafely(): Promise<void> {
    try {
      await idp.pushTenantClaims(input.tenantId);
    } catch {
      // The provider refused (e.g. unauthorized): the next claims change or an operator retry pushes again.
    }
  }
}

function failureKind(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type) return cause.type;
  return 'unavailable';
}

function failureMessage(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof Error ? cause.message : String(error);
}
