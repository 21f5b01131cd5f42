import type { EntityManager } from '@mikro-orm/postgresql';
import { AUDIT_DEFAULT_LIMIT, type AuditEvent, type AuditQuery } from '../schemas/audit.ts';
import { AUDIT_COLUMNS, toAuditEvent, type AuditRow } from './auditEventRow.ts';

const EQUALITY_FILTERS = ['tenant_id', 'product', 'actor_id', 'action'] as const;

/**
 * Newest first, keyset-paginated on id: a page deep in the log costs the same as the first one.
 * One extra row is read to know whether another page follows.
 */
export async function listAuditEvents(
  em: EntityManager,
  query: AuditQuery,
): Promise<{ items: AuditEvent[]; next_cursor?: number }> {
  const limit = query.limit ?? AUDIT_DEFAULT_LIMIT;
  const conditions: string[] = [];
  const params: unknown[] = [];
  for (const column of EQUALITY_FILTERS) {
    const value = query[column];
    if (value !== undefined) {
      conditions.push(`${column} = ?`);
      params.push(value);
    }
  }
  if (query.since) {
    conditions.push('created_at >= ?');
    params.push(query.since);
  }
  if (query.until) {
    // created_at is stored to the microsecond but shown to the millisecond: an event whose shown created_at
    // equals `until` must be included, so compare at the millisecond the caller can see (index-friendly).
    conditions.push(`created_at < date_trunc('milliseconds', ?::timestamptz) + interval '1 millisecond'`);
    params.push(query.until);
  }
  if (query.cursor !== undefined) {
    conditions.push('id < ?');
    params.push(query.cursor);
  }
  const where = conditions.length ? `where ${conditions.join(' and ')}` : '';
  const rows = await em.execute<AuditRow[]>(
    `select ${AUDIT_COLUMNS} from audit_events ${where} order by id desc limit ${limit + 1}`,
    params,
  );
  const page = rows.slice(0, limit).map(toAuditEvent);
  return rows.length > limit ? { items: page, next_cursor: page[page.length - 1]!.id } : { items: page };
}
