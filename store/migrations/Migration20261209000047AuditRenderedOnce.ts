import { Migration } from '@mikro-orm/migrations';

/** `"key":<the column as JSON>` when the column is not null, else nothing: the API leaves absent fields out. */
const optional = (key: string, column: string) => `coalesce(',"${key}":' || pg_catalog.to_json(e.${column})::text, '')`;

const ANSWER_FIELDS = [
  'tenant_id', 'project_id', 'actor_id', 'actor_name', 'actor_type', 'target_id', 'target_type', 'target_name',
  'product', 'source_ip', 'user_agent', 'recorded_by',
];

const CLOUD_EVENT_EXTENSIONS: [string, string][] = [
  ['projectid', 'project_id'], ['actorid', 'actor_id'], ['actorname', 'actor_name'], ['actortype', 'actor_type'],
  ['targetid', 'target_id'], ['targettype', 'target_type'], ['targetname', 'target_name'], ['product', 'product'],
  ['sourceip', 'source_ip'], ['useragent', 'user_agent'], ['recordedby', 'recorded_by'],
];

/** An event's answer, as an expression of the row `e` (the body of audit_event_answer). */
export const AUDIT_EVENT_ANSWER_SQL = `'{"id":' || e.id || ',"action":' || pg_catalog.to_json(e.action)::text
          || ',"created_at":"' || pg_catalog.to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'
          || ${ANSWER_FIELDS.map((field) => optional(field, field)).join('\n          || ')}
          || coalesce(',"metadata":' || e.metadata::text, '') || ',"hash":"' || e.hash || '"}'`;

/** An event's CloudEvent, as an expression of the row `e` and the hash it was chained from, `previous_hash`. */
export const AUDIT_EVENT_CLOUD_EVENT_SQL = `'{"specversion":"1.0","id":"' || e.id || '","source":"urn:tenant-registry","type":' || pg_catalog.to_json(e.action)::text
          || ',"time":"' || pg_catalog.to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '"'
          || ${optional('subject', 'tenant_id')} || ',"datacontenttype":"application/json"'
          || coalesce(',"data":' || e.metadata::text, '')
          || ',"sequence":"' || pg_catalog.lpad(e.id::text, 20, '0') || '","chainhash":"' || e.hash || '","chainprev":"' || previous_hash || '"'
          || ${CLOUD_EVENT_EXTENSIONS.map(([key, column]) => optional(key, column)).join('\n          || ')}
          || '}'`;

/**
 * An audit event is rendered once, when it is appended: the chain trigger writes its answer (the AuditEvent JSON of
 * GET /v1/audit, absent fields left out, metadata as its jsonb text, created_at to the millisecond) and its
 * CloudEvent (SPEC-EXTENSIONS §16: `chainprev` is the hash the event was chained from, so a later removal of that
 * predecessor changes nothing). Pages, exports, streams, the feed and webhooks concatenate the stored text instead of
 * projecting every row again on each read. The trigger sets both whatever an insert supplies, so a stored rendering
 * always says what the event's columns say.
 *
 * Existing events are rendered once here, with the append-only trigger lifted for this migration alone; an event
 * whose predecessor a tenant's retention removed takes it from audit_chain_links.
 */
export class Migration20261209000047AuditRenderedOnce extends Migration {
  override name = 'Migration20261209000047AuditRenderedOnce';

  up(): void {
    this.addSql(`alter table public.audit_events add column answer text, add column cloud_event text`);
    this.addSql(`
      create function public.audit_event_answer(e public.audit_events) returns text
        language sql immutable set search_path = pg_catalog, pg_temp as $$
        select ${AUDIT_EVENT_ANSWER_SQL}
      $$`);
    this.addSql(`
      create function public.audit_event_cloud_event(e public.audit_events, previous_hash text) returns text
        language sql immutable set search_path = pg_catalog, pg_temp as $$
        select ${AUDIT_EVENT_CLOUD_EVENT_SQL}
      $$`);
    this.addSql(`
      create or replace function public.audit_events_chain() returns trigger
        language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
      declare
        head_id bigint;
        head_hash text;
        chained_hash text;
      begin
        select h.last_id, h.last_hash into head_id, head_hash from public.audit_chain_head h for update;
        select e.hash into chained_hash from public.audit_events e where e.id > head_id order by e.id desc limit 1;
        new.id := pg_catalog.nextval('public.audit_event_ids');
        new.hash := public.audit_event_hash(coalesce(chained_hash, head_hash), new);
        new.answer := public.audit_event_answer(new);
        new.cloud_event := public.audit_event_cloud_event(new, coalesce(chained_hash, head_hash));
        return new;
      end $$`);
    this.addSql(`alter table public.audit_events disable trigger audit_events_append_only`);
    this.addSql(`
      update public.audit_events e
         set answer = public.audit_event_answer(e), cloud_event = public.audit_event_cloud_event(e, p.previous_hash)
        from (select x.id, coalesce(l.previous_hash, lag(x.hash) over (order by x.id), repeat('0', 64)) as previous_hash
                from public.audit_events x left join public.audit_chain_links l on l.id = x.id) p
       where p.id = e.id`);
    this.addSql(`alter table public.audit_events enable trigger audit_events_append_only`);
    this.addSql(`alter table public.audit_events alter column answer set not null, alter column cloud_event set not null`);
  }
}
