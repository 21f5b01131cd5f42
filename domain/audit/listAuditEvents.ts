import type { Sql } from '../sql.ts';
import { AUDIT_DEFAULT_LIMIT, type AuditQuery } from '../schemas/audit.ts';
import { AUDIT_COLUMNS_METADATA_AS_TEXT, auditEventJson, type AuditRow } from './auditEventRow.ts';

const EQUALITY_FILTERS = ['tenant_id', 'product', 'actor_id', 'action'] as const;

/**
 * How far created_at may run backwards as ids grow. Both are assigned by PostgreSQL in the same insert (identity and
 * clock_timestamp()), so in the service's own log they only disagree when the database clock is stepped back; the
 * tolerance covers such a step of up to a minute. Events imported with older created_at values than events already
 * in the log break the premise (see docs/performance.md).
 */
export const AUDIT_CLOCK_SKEW = '60 seconds';

/**
 * Newest first, keyset-paginated on id: a page deep in the log costs the same as the first one.
 * One extra row is read to know whether another page follows.
 *
 * A time range is also turned into an id range, so the page is still an index range scan newest-first instead of a
 * walk over every newer event (or a sort of the whole range): the last event at least AUDIT_CLOCK_SKEW before `since`
 * and the first one at least that long after `until`, each one lookup in the (created_at, id) index, bound the ids
 * the range can hold. The created_at conditions stay, so the answer is exact; the bounds only narrow the scan.
 */
/**
 * The page as the JSON text of an AuditPage, which GET /v1/audit sends as it is: a page is tens of kilobytes of
 * rows that would otherwise be turned into objects only to be serialised again (see auditEventJson).
 */
export async function listAuditEventsJson(sql: Sql, query: AuditQuery): Promise<string> {
  const limit = query.limit ?? AUDIT_DEFAULT_LIMIT;
  const conditions: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  // The statement's text follows from which filters are present: one prepared statement per combination.
  let shape = '';
  for (const column of EQUALITY_FILTERS) {
    const value = query[column];
    if (value !== undefined) {
      conditions.push(`${column} = ${param(value)}`);
      shape += `_${column}`;
    }
  }
  if (query.since) shape += '_since';
  if (query.until) shape += '_until';
  if (query.cursor !== undefined) shape += '_cursor';
  if (query.since) {
    const since = `${param(query.since)}::timestamptz`;
    conditions.push(`created_at >= ${since}`);
    conditions.push(
      `id > coalesce((select id from audit_events where created_at < ${since} - interval '${AUDIT_CLOCK_SKEW}'
                       order by created_at desc, id desc limit 1), 0)`,
    );
  }
  if (query.until) {
    // created_at is stored to the microsecond but shown to the millisecond: an event whose shown created_at
    // equals `until` must be included, so compare at the millisecond the caller can see (index-friendly).
    const untilExclusive = `(date_trunc('milliseconds', ${param(query.until)}::timestamptz) + interval '1 millisecond')`;
    conditions.push(`created_at < ${untilExclusive}`);
    conditions.push(
      `id < coalesce((select id from audit_events where created_at >= ${untilExclusive} + interval '${AUDIT_CLOCK_SKEW}'
                       order by created_at, id limit 1), 9223372036854775807)`,
    );
  }
  if (query.cursor !== undefined) conditions.push(`id < ${param(query.cursor)}`);
  const where = conditions.length ? `where ${conditions.join(' and ')}` : '';
  const text = `select ${AUDIT_COLUMNS_METADATA_AS_TEXT} from audit_events ${where} order by id desc limit ${param(limit + 1)}`;
  const { rows } = await sql.query<AuditRow & { metadata: string | null }>({ name: `audit_page${shape}`, text, values: params });
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const items = `[${page.map(auditEventJson).join(',')}]`;
  return rows.length > limit ? `{"items":${items},"next_cursor":${Number(page[page.length - 1]!.id)}}` : `{"items":${items}}`;
}
