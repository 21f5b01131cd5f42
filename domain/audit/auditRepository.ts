import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend, AuditEvent, AuditFilter, AuditIntegrity, AuditQuery } from '../schemas/audit.ts';
import type { AuditRow, RenderedAuditRow } from './auditEventRow.ts';
import type { RenderedCloudEvent } from '../events/cloudEvent.ts';

/**
 * An idempotent append's outcome: the event as rendered when appended (new, or the one the key first recorded), or a
 * key reused for another body.
 */
export type IdempotentAppend = { event: RenderedAuditRow; replayed: boolean } | { conflict: true };

/**
 * A time limit on each statement of a read: one that runs longer is stopped by the database and the read rejects
 * with `unavailable` (auditReadTimedOut). Without it a statement runs as long as it takes.
 */
export interface AuditReadOptions {
  statementTimeoutMs?: number;
}

/** What the events feed selects by (event types: audit actions, and one tenant), or an export the listing's filters. */
export type EventFilter = AuditFilter & { types?: readonly string[] };

/** The audit log's store (store/postgresAuditRepository.ts). */
export interface AuditRepository {
  /**
   * A page of GET /v1/audit as its JSON text, newest first; for a page with a cursor also the id the chain's head
   * had when it was read (domain/audit/deepAuditPages.ts).
   */
  pageJson(query: AuditQuery): Promise<{ json: string; headId?: number }>;
  /**
   * Up to `limit` matching events with ids above `afterId`, oldest first, as the answers they were rendered to: one
   * step of a stream's delivery or of an NDJSON export.
   */
  answersAfter(filter: AuditFilter & { action_prefix?: string }, afterId: number, limit: number, options?: AuditReadOptions): Promise<RenderedAuditRow[]>;
  /** The same events as their columns: one step of a CSV export, which writes them one by one. */
  columnsAfter(filter: AuditFilter, afterId: number, limit: number, options?: AuditReadOptions): Promise<AuditRow[]>;
  /** Appends one event on its own (POST /v1/audit goes through the batcher instead). */
  append(event: AuditAppend, meta: RequestMeta): Promise<AuditEvent>;
  /**
   * Appends a workflow's outcome event for a tenant unless one with the same `outcome_id` in its metadata was
   * appended already (an activity retried after its insert committed).
   */
  appendOutcomeOnce(event: AuditAppend & { tenant_id: string; metadata: { outcome_id: string } }, meta: RequestMeta): Promise<void>;
  /** Appends as one multi-row statement; rows in the order given. */
  insertBatch(appends: { event: AuditAppend; meta: RequestMeta }[]): Promise<RenderedAuditRow[]>;
  /**
   * Appends unless the key (within `scope`, for 24 hours) was used before: then the first event again, or a
   * conflict when the earlier request differed. Concurrent uses of one key append once.
   */
  appendIdempotent(scope: string, key: string, requestHash: string, event: AuditAppend, meta: RequestMeta): Promise<IdempotentAppend>;
  /**
   * Up to `limit` events with ids above `afterId` of the given types and tenant (each optional), oldest first, as the
   * events feed carries them: one page of GET /v1/events, one step of a delivery.
   */
  chainedEventsAfter(filter: EventFilter, afterId: number, limit: number, options?: AuditReadOptions): Promise<RenderedCloudEvent[]>;
  /**
   * The tenant's retention at `asOf`: with `settings.audit_retention_days` set and events older than that, appends
   * the checkpoint and removes them (answering the checkpoint's id and how many it removed), else does nothing.
   */
  removeExpired(tenantId: string, asOf: Date, meta: RequestMeta): Promise<{ checkpointId: number; removed: number } | undefined>;
  /** When the tenant's oldest event but its retention checkpoints was appended (none: undefined). */
  oldestRetainedAt(tenantId: string): Promise<Date | undefined>;
  /** Recomputes the chain over the id range and compares with the stored hashes. */
  integrity(fromId?: number, toId?: number, options?: AuditReadOptions): Promise<AuditIntegrity>;
}
