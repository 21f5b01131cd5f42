import type { AuditStreamRecord } from '../../domain/auditStreams/auditStreamRepository.ts';
import type { ChangeEffects, CommittedChange, QueuedActorCommand } from '../../domain/changeEffects/changeEffects.ts';
import type { RegistryCache } from '../../domain/reads/registryCache.ts';
import type { ActorOutbox } from '../../domain/tenantActor/actorOutboxRepository.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditStreamClient } from '../temporalClients/auditStreamClient.ts';
import type { TenantActorClient } from '../temporalClients/tenantActorClient.ts';
import type { WebhookDeliveryClient } from '../temporalClients/webhookDeliveryClient.ts';
import type { WebhookEndpointRecord } from '../../domain/webhooks/webhookEndpointRepository.ts';

export interface ChangeEffectDispatcherDeps {
  cache: RegistryCache;
  outbox: ActorOutbox;
  log: Logger;
  /** How long a tenant creation waits for its invite link (PROVISIONING_WAIT_MS). */
  provisioningWaitMs: number;
  /** Absent: hand-offs stay in the outbox for the relay of a replica that has Temporal. */
  tenantActors?: TenantActorClient;
  /** Absent: the reconciler of a replica that has Temporal starts the streams. */
  auditStreams?: AuditStreamClient;
  /** Absent: the reconciler of a replica that has Temporal starts the webhook deliveries. */
  webhookDeliveries?: WebhookDeliveryClient;
}

/**
 * The one place a committed change's effects are carried out, for every domain service of the API process: this
 * replica's cache, the hand-offs to the tenants' actors (each marked delivered once Temporal has it; the outbox relay
 * delivers what this could not, through `deliver`), and the audit streams' and webhook endpoints' delivery workflows. Nothing here throws to
 * the caller: the change is committed and its answer stands.
 */
export class ChangeEffectDispatcher implements ChangeEffects {
  readonly #deps: ChangeEffectDispatcherDeps;

  constructor(deps: ChangeEffectDispatcherDeps) {
    this.#deps = deps;
  }

  follow(change: CommittedChange): void {
    for (const tenantId of change.staleTenants ?? []) this.#deps.cache.invalidateTenant(tenantId);
    for (const prefix of change.staleApiKeys ?? []) this.#deps.cache.invalidateApiKey(prefix);
    for (const userId of change.staleUsers ?? []) this.#deps.cache.invalidateUser(userId);
    for (const tenantId of change.staleMemberLists ?? []) this.#deps.cache.invalidateMemberList(tenantId);
    if (change.staleAllMembers) this.#deps.cache.invalidateAllMembers();
    if (change.staleCatalog) this.#deps.cache.invalidateCatalog();
    for (const directoryId of change.staleDirectories ?? []) this.#deps.cache.invalidateDirectory(directoryId);
    for (const listing of change.staleListings ?? []) this.#deps.cache.invalidateListing(listing);
    for (const handOff of change.handOffs ?? []) {
      this.deliver(handOff)
        .then(() => this.#deps.outbox.markDelivered([handOff.id]))
        .catch((err: unknown) => this.#deps.log.warn({ tenantId: handOff.tenantId, command: handOff.command.kind, err }, 'actor hand-off failed; the outbox relay will deliver it'));
    }
  }

  /** Delivers one hand-off to its actor; rejects when Temporal is unreachable or not configured here. */
  async deliver(handOff: QueuedActorCommand): Promise<void> {
    if (!this.#deps.tenantActors) throw new Error('no workflow service configured in this process');
    await this.#deps.tenantActors.deliver(handOff.tenantId, handOff.command);
  }

  async provisionWithinWait(handOff: QueuedActorCommand): Promise<string | undefined> {
    const { tenantActors, provisioningWaitMs: waitMs, log, outbox } = this.#deps;
    if (!tenantActors) return undefined;
    const { tenantId } = handOff;
    const attempt = tenantActors.provisionAndWait(tenantId, waitMs).then(
      (outcome) => {
        if (outcome) {
          // Not awaited: the answer does not depend on it, and should it fail the relay delivers once more (idempotent).
          outbox
            .markDelivered([handOff.id])
            .catch((err: unknown) => log.warn({ tenantId, err }, 'could not mark the provisioning hand-off delivered; the relay will repeat it'));
        }
        return outcome?.status === 'succeeded' ? outcome.inviteUrl : undefined;
      },
      (err: unknown) => {
        log.warn({ tenantId, err }, 'provisioning hand-off failed; the outbox relay will deliver it');
        return undefined;
      },
    );
    return raceWait(attempt, waitMs);
  }

  /**
   * The same bounded wait for an invitation's send; the hand-off is marked delivered once the actor answered, and
   * the relay delivers it again otherwise (a send is once per link secret).
   */
  async inviteWithinWait(handOff: QueuedActorCommand): Promise<string | undefined> {
    const { tenantActors, provisioningWaitMs: waitMs, log, outbox } = this.#deps;
    const { tenantId, command } = handOff;
    if (!tenantActors || command.kind !== 'sendInvitation') return undefined;
    const attempt = tenantActors.sendInvitationAndWait(tenantId, command, waitMs).then(
      (outcome) => {
        if (outcome) {
          outbox
            .markDelivered([handOff.id])
            .catch((err: unknown) => log.warn({ tenantId, err }, 'could not mark the invitation hand-off delivered; the relay will repeat it'));
        }
        if (outcome?.status === 'failed') log.warn({ tenantId, invitationId: command.invitation_id, kind: outcome.kind, step: outcome.step }, 'invitation send failed');
        return outcome?.status === 'sent' ? outcome.inviteUrl : undefined;
      },
      (err: unknown) => {
        log.warn({ tenantId, err }, 'invitation hand-off failed; the outbox relay will deliver it');
        return undefined;
      },
    );
    return raceWait(attempt, waitMs);
  }

  async streamCreated(stream: AuditStreamRecord): Promise<void> {
    await this.#deps.auditStreams
      ?.start(stream)
      .catch((err: unknown) => this.#deps.log.warn({ streamId: stream.id, err }, 'audit stream delivery not started yet; the reconciler will'));
  }

  async streamDeleted(streamId: string): Promise<void> {
    await this.#deps.auditStreams
      ?.stop(streamId)
      .catch((err: unknown) => this.#deps.log.warn({ streamId, err }, 'could not cancel the audit stream delivery; it stops at its next step'));
  }

  async webhookEndpointChanged(endpoint: WebhookEndpointRecord): Promise<void> {
    await this.#deps.webhookDeliveries
      ?.wake(endpoint)
      .catch((err: unknown) => this.#deps.log.warn({ endpointId: endpoint.id, err }, 'webhook delivery not told of the change; it sees it at its next step, or the reconciler starts it'));
  }
}

/**
 * The gRPC deadline bounds a call, but not what precedes it (a connection being re-established to a Temporal that is
 * shutting down): an answer waits no longer than the wait whatever Temporal does.
 */
async function raceWait<T>(attempt: Promise<T | undefined>, waitMs: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), waitMs);
  });
  try {
    return await Promise.race([attempt, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
