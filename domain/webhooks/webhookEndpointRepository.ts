import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';

export type WebhookEndpointState = 'active' | 'failing' | 'disabled';

export interface WebhookEndpointRecord {
  id: string;
  url: string;
  types: string[];
  tenantId: string | null;
  state: WebhookEndpointState;
  /** Where delivery stands: events with higher sequences are delivered next. */
  lastDeliveredSequence: number;
  /** Moves on with every replay request: a delivery working under an older one starts again from the request. */
  replayGeneration: number;
  createdAt: Date;
  deletedAt: Date | null;
}

/** What the delivering activity needs besides the record: the keys that sign now (the current first). */
export interface DeliverableWebhookEndpoint extends WebhookEndpointRecord {
  signingSecrets: string[];
}

/** The fields a change sets; each absent one stays. */
export interface WebhookEndpointFields {
  url?: string;
  types?: string[];
  state?: 'active' | 'disabled';
}

/** The webhook endpoints' store (store/postgresWebhookEndpointRepository.ts). */
export interface WebhookEndpointRepository {
  /** Inserts the endpoint with its audit event; delivery starts after the newest event at that moment. */
  create(endpoint: { id: string; url: string; types: string[]; tenantId: string | null; secret: string }, event: AuditAppend, meta: RequestMeta): Promise<WebhookEndpointRecord>;
  /** Endpoints not deleted, oldest first. */
  list(): Promise<WebhookEndpointRecord[]>;
  find(id: string): Promise<WebhookEndpointRecord | undefined>;
  /**
   * Sets the given fields with the audit event `eventOf` makes of the endpoint before and after, in one transaction;
   * undefined when there is no such live endpoint. Re-enabling a disabled endpoint makes it active.
   */
  change(id: string, fields: WebhookEndpointFields, eventOf: (before: WebhookEndpointRecord, after: WebhookEndpointRecord) => AuditAppend, meta: RequestMeta): Promise<WebhookEndpointRecord | undefined>;
  /** Marks the endpoint deleted with its audit event; false when there is no such live endpoint. */
  markDeleted(id: string, event: AuditAppend, meta: RequestMeta): Promise<boolean>;
  /** The new secret signs from now on; the current one goes on signing for `overlapSeconds`. Undefined: no such endpoint. */
  rotateSecret(id: string, secret: string, overlapSeconds: number, event: AuditAppend, meta: RequestMeta): Promise<{ endpoint: WebhookEndpointRecord; previousSecretUntil: Date } | undefined>;
  /** Moves delivery back to after `afterSequence` under a new replay generation, with its audit event. */
  requestReplay(id: string, afterSequence: number, event: AuditAppend, meta: RequestMeta): Promise<WebhookEndpointRecord | undefined>;
  findDeliverable(id: string): Promise<DeliverableWebhookEndpoint | undefined>;
  /**
   * Records where delivery stands under `replayGeneration` (a delivery of an older generation writes nothing), and the
   * state it leaves: a failure makes an active endpoint failing, a delivery a failing one active.
   */
  recordProgress(id: string, replayGeneration: number, sequence: number, failure: string | null): Promise<void>;
  /** Disables the endpoint after its retry window, with its audit event; false when it was disabled or deleted already. */
  disable(id: string, event: AuditAppend, meta: RequestMeta): Promise<boolean>;
}
