import type { AuditReadOptions, AuditRepository } from '../audit/auditRepository.ts';
import { EVENTS_DEFAULT_LIMIT, type EventFeedQuery } from '../schemas/events.ts';
import { sequenceOf } from './cloudEvent.ts';

/** A page of GET /v1/events as JSON text, and whether it is final. */
export interface EventPageAnswer {
  json: string;
  /**
   * The page is full: every event up to its last one was committed before it was read (an event's id is drawn under
   * the chain's lock, held until its commit), so the same request answers these bytes again. A page that is not full
   * reaches the log's newest event and grows as events are appended.
   */
  final: boolean;
}

/**
 * The events after the cursor, oldest first, as CloudEvents. `next_cursor` is always there: the last item's
 * sequence, or on an empty page the cursor itself, so a receiver resumes from it whether or not more has come. Each
 * read runs under the audit reads' statement timeout (a rare type's page may walk far).
 */
export async function readEventPage(audit: AuditRepository, query: EventFeedQuery, options: AuditReadOptions = {}): Promise<EventPageAnswer> {
  const limit = query.limit ?? EVENTS_DEFAULT_LIMIT;
  const after = query.after ?? 0;
  const filter = {
    ...(query.types === undefined ? {} : { types: [...new Set(query.types.split(','))] }),
    ...(query.tenant_id === undefined ? {} : { tenant_id: query.tenant_id }),
  };
  const rows = await audit.chainedEventsAfter(filter, after, limit, options);
  const next = sequenceOf(rows.length > 0 ? rows[rows.length - 1]!.id : after);
  return { json: `{"items":[${rows.map((row) => row.cloud_event).join(',')}],"next_cursor":"${next}"}`, final: rows.length === limit };
}
