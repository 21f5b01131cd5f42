import type { AuditReadOptions, AuditRepository, EventFilter, IdempotentAppend } from '../domain/audit/auditRepository.ts';
import type { RenderedCloudEvent } from '../domain/events/cloudEvent.ts';
import { AUDIT_RETENTION_CHECKPOINT } from '../domain/audit/auditRetention.ts';
import { auditReadTimedOut } from '../domain/audit/auditReadLimits.ts';
import { auditEventOfAnswer, type AuditRow, type RenderedAuditRow } from '../domain/audit/auditEventRow.ts';
import { AUDIT_COLUMNS_METADATA_AS_TEXT, AUDIT_INSERT_COLUMNS, AUDIT_INSERT_PLACEHOLDERS, auditInsertValues } from './auditEventInsert.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import { AUDIT_DEFAULT_LIMIT, type AuditAppend, type AuditEvent, type AuditFilter, type AuditIntegrity, type AuditQuery } from '../domain/schemas/audit.ts';
import type { Sql } from './sql.ts';
import { nativePool } from './nativePool.ts';
import { withStatementTimeout } from './statementTimeout.ts';
import type { Orm } from './orm.ts';

const EQUALITY_FILTERS = ['tenant_id', 'product', 'actor_id', 'action'] as const;
const COLUMN_COUNT = AUDIT_INSERT_COLUMNS.split(',').length;

/**
 * How far created_at may run backwards as ids grow. The id is drawn by the chain trigger once the event holds the
 * chain's lock, created_at when its row was formed: they disagree by the time a transaction waits for that lock, or
 * when the database clock is stepped back; the tolerance covers up to a minute. Events imported with older created_at
 * values than events already in the log break the premise (see docs/performance.md).
 */
export const AUDIT_CLOCK_SKEW = '60 seconds';

/** How long an Idempotency-Key answers with its first event. */
const IDEMPOTENCY_WINDOW = '24 hours';

/**
 * The WHERE conditions of the filters, with their parameters appended to `params`, and the shape of the statement
 * (which filters are present), so each combination is one prepared statement.
 *
 * A time range is also turned into an id range, so a page is still an index range scan instead of a walk over every
 * newer event (or a sort of the whole range): the last event at least AUDIT_CLOCK_SKEW before `since` and the first
 * one at least that long after `until`, each one lookup in the (created_at, id) index, bound the ids the range can
 * hold. The created_at conditions stay, so the answer is exact; the bounds only narrow the scan.
 */
function filterConditions(filter: AuditFilter & { action_prefix?: string }, params: unknown[]): { conditions: string[]; shape: string } {
  const conditions: string[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  let shape = '';
  for (const column of EQUALITY_FILTERS) {
    const value = filter[column];
    if (value !== undefined) {
      conditions.push(`${column} = ${param(value)}`);
      shape += `_${column}`;
    }
  }
  if (filter.action_prefix !== undefined) {
    conditions.push(`starts_with(action, ${param(filter.action_prefix)})`);
    shape += '_action_prefix';
  }
  if (filter.since) {
    shape += '_since';
    const since = `${param(filter.since)}::timestamptz`;
    conditions.push(`created_at >= ${since}`);
    conditions.push(
      `id > coalesce((select id from audit_events where created_at < ${since} - interval '${AUDIT_CLOCK_SKEW}'
                       order by created_at desc, id desc limit 1), 0)`,
    );
  }
  if (filter.until) {
    shape += '_until';
    // created_at is stored to the microsecond but shown to the millisecond: an event whose shown created_at
    // equals `until` must be included, so compare at the millisecond the caller can see (index-friendly).
    const untilExclusive = `(date_trunc('milliseconds', ${param(filter.until)}::timestamptz) + interval '1 millisecond')`;
    conditions.push(`created_at < ${untilExclusive}`);
    conditions.push(
      `id < coalesce((select id from audit_events where created_at >= ${untilExclusive} + interval '${AUDIT_CLOCK_SKEW}'
                       order by created_at, id limit 1), 9223372036854775807)`,
    );
  }
  return { conditions, shape };
}

const insertStatements = new Map<number, { name: string; text: string }>();

/**
 * The INSERT of `rows` events, made once per row count (at most the append batcher's batch size): building its
 * placeholders showed in the API's profile under appends, for a text that never changes.
 */
function insertStatement(rows: number): { name: string; text: string } {
  let statement = insertStatements.get(rows);
  if (!statement) {
    const placeholders = Array.from({ length: rows }, (_, row) => `(${Array.from({ length: COLUMN_COUNT }, (__, col) => `$${row * COLUMN_COUNT + col + 1}`).join(', ')})`);
    statement = {
      name: `audit_append_${rows}`,
      text: `insert into audit_events (${AUDIT_INSERT_COLUMNS}) values ${placeholders.join(', ')} returning id, answer`,
    };
    insertStatements.set(rows, statement);
  }
  return statement;
}

/** Every statement of the audit log: single statements on the pool under the ORM, transactions on a client of it. */
export class PostgresAuditRepository implements AuditRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  #sql(): Promise<Sql> {
    return nativePool(this.#orm);
  }

  /**
   * Newest first, keyset-paginated on id: a page deep in the log costs the same as the first one. One extra row is
   * read to know whether another page follows. A page is its events' answers, rendered when they were appended
   * (Migration20261209000047AuditRenderedOnce), joined: nothing is projected or encoded again per read.
   */
  async pageJson(query: AuditQuery): Promise<{ json: string; headId?: number }> {
    const limit = query.limit ?? AUDIT_DEFAULT_LIMIT;
    const params: unknown[] = [];
    const { conditions, shape } = filterConditions(query, params);
    const cursor = query.cursor === undefined ? undefined : `$${params.push(query.cursor)}`;
    const take = `limit $${params.push(limit + 1)}`;
    // A page below a cursor reads the chain's head in the same snapshot: whether the page is final (deepAuditPages.ts).
    const deep = cursor !== undefined;
    const columns = `id, answer as json${deep ? ', (select last_id from audit_chain_head) as head' : ''}`;
    // Products and actions are a vocabulary of dozens of values: PostgreSQL's plan for the prepared statement expects
    // a page's matches among the newest events and walks the primary key backwards, filtering, which costs every row
    // between the newest matches, the more the rarer the value among the newest events. Filtered by them alone, a
    // page takes its ids from the filter's own (column, id) index: the equality and the cursor as one row range,
    // `(product, id) >= ($1, 0) and (product, id) < ($1, cursor)`, which only that index serves, in its order (the
    // equality alone would let the primary key's order serve as well). A tenant or actor filter is selective and
    // planned well as it is.
    const keyed = query.tenant_id === undefined && query.actor_id === undefined ? (query.product !== undefined ? 'product' : query.action !== undefined ? 'action' : undefined) : undefined;
    let text: string;
    if (keyed) {
      const equality = conditions.findIndex((condition) => condition.startsWith(`${keyed} = `));
      const value = conditions[equality]!.slice(`${keyed} = `.length);
      conditions[equality] = `(${keyed}, id) >= (${value}, 0) and (${keyed}, id) < (${value}, ${cursor ?? '9223372036854775807'})`;
      text = `select ${columns} from audit_events
               where id = any(array(select id from audit_events where ${conditions.join(' and ')} order by ${keyed} desc, id desc ${take}))
               order by id desc`;
    } else {
      if (cursor) conditions.push(`id < ${cursor}`);
      text = `select ${columns} from audit_events ${conditions.length ? `where ${conditions.join(' and ')}` : ''} order by id desc ${take}`;
    }
    const name = `audit_page_json${shape}${deep ? '_cursor' : ''}`;
    const { rows } = await (await this.#sql()).query<{ id: string; json: string; head?: string }>({ name, text, values: params });
    const page = rows.length > limit ? rows.slice(0, limit) : rows;
    const items = `[${page.map((row) => row.json).join(',')}]`;
    const json = rows.length > limit ? `{"items":${items},"next_cursor":${Number(page[page.length - 1]!.id)}}` : `{"items":${items}}`;
    if (!deep) return { json };
    // An empty page has no row to carry the head: read it alone (rare: a cursor past every match).
    const head = rows[0]?.head ?? (await (await this.#sql()).query<{ head: string }>({ name: 'audit_chain_head_id', text: 'select last_id as head from audit_chain_head', values: [] })).rows[0]?.head;
    return head === undefined ? { json } : { json, headId: Number(head) };
  }

  answersAfter(filter: AuditFilter & { action_prefix?: string }, afterId: number, limit: number, options: AuditReadOptions = {}): Promise<RenderedAuditRow[]> {
    return this.#after<RenderedAuditRow>('id, answer', 'audit_answers_after', filter, afterId, limit, options);
  }

  columnsAfter(filter: AuditFilter, afterId: number, limit: number, options: AuditReadOptions = {}): Promise<AuditRow[]> {
    return this.#after<AuditRow>(AUDIT_COLUMNS_METADATA_AS_TEXT, 'audit_columns_after', filter, afterId, limit, options);
  }

  /** `select` of the matching events above `afterId`, oldest first; each filter's shape one prepared statement. */
  async #after<R>(
    select: string,
    statement: string,
    filter: AuditFilter & { action_prefix?: string },
    afterId: number,
    limit: number,
    options: AuditReadOptions,
  ): Promise<R[]> {
    const params: unknown[] = [];
    const { conditions, shape } = filterConditions(filter, params);
    conditions.push(`id > $${params.push(afterId)}`);
    const text = `select ${select} from audit_events where ${conditions.join(' and ')} order by id limit $${params.push(limit)}`;
    const { rows } = await this.#read(options, (sql) => sql.query<R>({ name: `${statement}${shape}`, text, values: params }));
    return rows;
  }

  /**
   * The feed's step, and the cloudevents export's: the listing's filters and the types, from the cursor up in id
   * order (the (action, id) index serves types, the (tenant_id, id) one a tenant); each shape one prepared statement.
   */
  async chainedEventsAfter(filter: EventFilter, afterId: number, limit: number, options: AuditReadOptions = {}): Promise<RenderedCloudEvent[]> {
    const params: unknown[] = [];
    const { conditions, shape } = filterConditions(filter, params);
    if (filter.types !== undefined) conditions.push(`action = any($${params.push(filter.types)}::text[])`);
    conditions.push(`e.id > $${params.push(afterId)}`);
    const name = `events_after${shape}${filter.types ? '_types' : ''}`;
    const text = `select e.id, e.cloud_event from audit_events e where ${conditions.join(' and ')} order by e.id limit $${params.push(limit)}`;
    const { rows } = await this.#read(options, (sql) => sql.query<RenderedCloudEvent>({ name, text, values: params }));
    return rows;
  }

  /** One call of the owner's audit_remove_expired (Migration20261208000044AuditRetention), which does it all in its transaction. */
  async removeExpired(tenantId: string, asOf: Date, meta: RequestMeta): Promise<{ checkpointId: number; removed: number } | undefined> {
    const { rows } = await (await this.#sql()).query<{ checkpoint_id: string; removed: string }>({
      name: 'audit_remove_expired',
      text: 'select checkpoint_id, removed from audit_remove_expired($1, $2, $3, $4, $5)',
      values: [tenantId, asOf, meta.actorId ?? null, meta.actorType ?? null, meta.recordedBy ?? null],
    });
    const [row] = rows;
    return row ? { checkpointId: Number(row.checkpoint_id), removed: Number(row.removed) } : undefined;
  }

  /** The tenant's first event by id (ids and created_at rise together, within AUDIT_CLOCK_SKEW): one index step. */
  async oldestRetainedAt(tenantId: string): Promise<Date | undefined> {
    const { rows } = await (await this.#sql()).query<{ created_at: Date | string }>({
      name: 'audit_oldest_retained',
      text: `select created_at from audit_events where tenant_id = $1 and action <> '${AUDIT_RETENTION_CHECKPOINT}' order by id limit 1`,
      values: [tenantId],
    });
    return rows[0] ? new Date(rows[0].created_at) : undefined;
  }

  /** A read on the pool, each statement within `options.statementTimeoutMs` when given. */
  #read<T>(options: AuditReadOptions, work: (sql: Sql) => Promise<T>): Promise<T> {
    return withStatementTimeout(this.#orm, options.statementTimeoutMs, auditReadTimedOut, work);
  }

  async append(event: AuditAppend, meta: RequestMeta): Promise<AuditEvent> {
    const [row] = await this.insertBatch([{ event, meta }]);
    return auditEventOfAnswer(row!);
  }

  /** One statement: the event is appended unless an earlier attempt of the same outcome already appended it. */
  async appendOutcomeOnce(event: AuditAppend & { tenant_id: string; metadata: { outcome_id: string } }, meta: RequestMeta): Promise<void> {
    await (await this.#sql()).query({
      name: 'audit_append_outcome_once',
      text: `insert into audit_events (${AUDIT_INSERT_COLUMNS})
             select $1::text, $2::uuid, $3::uuid, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $10::text,
                    $11::jsonb, $12::text, $13::text, $14::text
              where not exists (select 1 from audit_events where tenant_id = $2 and action = $1
                                   and metadata->>'outcome_id' = $15)`,
      values: [...auditInsertValues(event, meta), event.metadata.outcome_id],
    });
  }

  /** Rows in the order of `tuples`: the chain trigger draws ids row by row in VALUES order, so sorting by id restores it. */
  async insertBatch(appends: { event: AuditAppend; meta: RequestMeta }[]): Promise<RenderedAuditRow[]> {
    const tuples = appends.map(({ event, meta }) => auditInsertValues(event, meta));
    const { rows } = await (await this.#sql()).query<RenderedAuditRow>({ ...insertStatement(tuples.length), values: tuples.flat() });
    if (rows.length !== tuples.length) throw new Error(`audit append wrote ${rows.length} of ${tuples.length} rows`);
    return rows.sort((a, b) => Number(a.id) - Number(b.id));
  }

  /**
   * The key is claimed by inserting it (an expired claim is taken over), in the transaction that appends the event:
   * a concurrent request with the same key waits on the key's primary key until this one commits, then finds the
   * recorded event. Should the append fail, the claim rolls back with it.
   */
  appendIdempotent(scope: string, key: string, requestHash: string, event: AuditAppend, meta: RequestMeta): Promise<IdempotentAppend> {
    return this.#orm.em.fork().transactional(async (tx) => {
      const claimed = await tx.execute<{ key: string }[]>(
        `insert into audit_idempotency_keys (scope, key, request_hash) values (?, ?, ?)
         on conflict (scope, key) do update set request_hash = excluded.request_hash, event_id = null, created_at = now()
           where audit_idempotency_keys.created_at < now() - interval '${IDEMPOTENCY_WINDOW}'
         returning key`,
        [scope, key, requestHash],
      );
      if (claimed.length === 0) {
        const [earlier] = await tx.execute<{ request_hash: string; event_id: string }[]>(
          `select request_hash, event_id from audit_idempotency_keys where scope = ? and key = ?`,
          [scope, key],
        );
        if (!earlier || earlier.request_hash !== requestHash) return { conflict: true as const };
        const [row] = await tx.execute<RenderedAuditRow[]>(`select id, answer from audit_events where id = ?`, [earlier.event_id]);
        return { event: row!, replayed: true };
      }
      const [row] = await tx.execute<RenderedAuditRow[]>(
        `insert into audit_events (${AUDIT_INSERT_COLUMNS}) values (${AUDIT_INSERT_PLACEHOLDERS}) returning id, answer`,
        auditInsertValues(event, meta),
      );
      await tx.execute(`update audit_idempotency_keys set event_id = ? where scope = ? and key = ?`, [row!.id, scope, key]);
      return { event: row!, replayed: false };
    });
  }

  /**
   * One pass over the range in id order: each event's hash is recomputed from its predecessor's stored hash (the one
   * just below the range for its first event; for an event whose predecessor a tenant's retention removed, the hash
   * the removal kept in audit_chain_links), so an altered event is the first mismatch, and a removed one makes its
   * successor mismatch. Checking up to the end also compares the newest event with the chain head, which a removal
   * of the newest events would leave behind.
   */
  async integrity(fromId?: number, toId?: number, options: AuditReadOptions = {}): Promise<AuditIntegrity> {
    type Verdict = { checked: string; first_bad_id: string | null; last_id: string | null; last_hash: string | null; head_id: string; head_hash: string };
    const { rows } = await this.#read(options, (sql) => sql.query<Verdict>({
      name: 'audit_integrity',
      text: `with bounds as (
               select coalesce($1::bigint, 1) as from_id, coalesce($2::bigint, 9223372036854775807) as to_id
             ), checked as (
               select e.id, e.hash,
                      e.hash = audit_event_hash(
                        coalesce(l.previous_hash,
                                 lag(e.hash) over (order by e.id),
                                 (select p.hash from audit_events p, bounds where p.id < bounds.from_id order by p.id desc limit 1),
                                 repeat('0', 64)),
                        e) as intact
                 from audit_events e left join audit_chain_links l on l.id = e.id, bounds
                where e.id between bounds.from_id and bounds.to_id
             )
             select (select count(*) from checked) as checked,
                    (select min(id) from checked where not intact) as first_bad_id,
                    (select id from checked order by id desc limit 1) as last_id,
                    (select hash from checked order by id desc limit 1) as last_hash,
                    h.last_id as head_id, h.last_hash as head_hash
               from audit_chain_head h`,
      values: [fromId ?? null, toId ?? null],
    }));
    const r = rows[0]!;
    const result: AuditIntegrity = {
      ok: r.first_bad_id === null,
      checked: Number(r.checked),
      last_id: r.last_id === null ? 0 : Number(r.last_id),
      last_hash: r.last_hash ?? '0'.repeat(64),
    };
    if (r.first_bad_id !== null) result.first_bad_id = Number(r.first_bad_id);
    else if (toId === undefined && (String(r.last_id ?? 0) !== String(r.head_id) || (r.last_hash ?? '0'.repeat(64)) !== r.head_hash)) {
      // The newest events are gone (or the head was moved): the first id the head vouches for that is missing.
      result.ok = false;
      result.first_bad_id = Number(r.last_id ?? 0) + 1;
    }
    return result;
  }
}
