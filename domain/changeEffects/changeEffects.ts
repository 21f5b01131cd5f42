import type { AuditStreamRecord } from '../auditStreams/auditStreamRepository.ts';
import type { OutboxCommand } from '../tenantActor/tenantActorCommand.ts';
import type { WebhookEndpointRecord } from '../webhooks/webhookEndpointRepository.ts';

/** A command for a tenant's actor, written to the outbox in the transaction of the change that caused it. */
export interface QueuedActorCommand {
  /** The outbox row: delivered now by the request, or later by the relay. */
  id: number;
  tenantId: string;
  command: OutboxCommand;
}

/**
 * What follows a committed change, as the service that made the change decided it. Every replica's cache hears the
 * change itself through the NOTIFY its transaction sent (store/changeListener.ts); these name what this replica
 * forgets at once, and the hand-offs already written to the outbox.
 */
export interface CommittedChange {
  /** Tenants whose status, plan or products (what verify and claims read) may have changed. */
  staleTenants?: string[];
  /** Prefixes of API keys whose validity changed. */
  staleApiKeys?: string[];
  handOffs?: QueuedActorCommand[];
  /** Users whose memberships (status, roles) changed: what claims read of them. */
  staleUsers?: string[];
  /** Tenants one of whose members changed: their member lists. */
  staleMemberLists?: string[];
  /** A role's permissions changed or a role went: every cached member may hold it. */
  staleAllMembers?: boolean;
  /** The catalog or a product's clients changed: its listing and the products' clients. */
  staleCatalog?: boolean;
  /** Directories whose record, users or groups changed: what their SCIM reads answer. */
  staleDirectories?: string[];
  /** Listings whose pages changed (domain/reads/keptListing.ts: the tenants', a tenant's API keys or invitations). */
  staleListings?: string[];
}

/**
 * The port through which a domain service hands its committed change's effects to the one dispatcher
 * (api/changeEffects/changeEffectDispatcher.ts). None of these throws: an effect that cannot be delivered now stays in
 * the outbox (or the reconciler's sweep) and is delivered later.
 */
export interface ChangeEffects {
  /** Forgets the stale cache entries now and delivers the hand-offs without holding up the answer. */
  follow(change: CommittedChange): void;
  /**
   * Delivers a provisioning hand-off and waits up to the configured time for its outcome: the invite link, or
   * undefined when it did not come in time (the outbox relay delivers again; provisioning is idempotent).
   */
  provisionWithinWait(handOff: QueuedActorCommand): Promise<string | undefined>;
  /**
   * Delivers an invitation's send (a `sendInvitation` hand-off) and waits up to the configured time for the link the
   * identity provider made: undefined when it did not come in time or the send failed (the actor retries it, and the
   * outbox relay delivers the hand-off again; a send is once per link).
   */
  inviteWithinWait(handOff: QueuedActorCommand): Promise<string | undefined>;
  /** A new stream's delivery starts now, or at the reconciler's next sweep. */
  streamCreated(stream: AuditStreamRecord): Promise<void>;
  /** A deleted stream's delivery is cancelled now, or stops at its next step when it sees the deletion. */
  streamDeleted(streamId: string): Promise<void>;
  /**
   * A webhook endpoint was made, changed, deleted or asked to replay: its delivery starts, or hears of it at once (a
   * backoff's wait ends); otherwise it sees the change at its next step, or the reconciler's sweep starts it.
   */
  webhookEndpointChanged(endpoint: WebhookEndpointRecord): Promise<void>;
}
