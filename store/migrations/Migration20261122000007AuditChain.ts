import { Migration } from '@mikro-orm/migrations';

/**
 * Tamper evidence for the audit log (SPEC-EXTENSIONS §4): every event carries `hash`, the hex SHA-256 of the previous
 * event's hash followed by the event's canonical text (audit_event_canonical), the first event chaining from 64 zeros.
 *
 * The chain is made by the database, in a BEFORE INSERT trigger, so every way an event is written (the batched
 * appends, the tenant's one-statement creation, the workflows' outcome events, any replica) is chained the same
 * way. A transaction's first event takes the chain head's row lock and only then draws its id, so ids follow the
 * chain: concurrent transactions append one after the other, each seeing the hash its predecessor committed. The identity
 * column becomes a plain sequence the trigger draws from, which also ignores any id a caller supplies.
 *
 * Idempotency keys of POST /v1/audit live beside it: the first append with a key claims it (primary key), a repeat
 * within 24 hours answers the recorded event.
 */
export class Migration20261122000007AuditChain extends Migration {
  override name = 'Migration20261122000007AuditChain';

  up(): void {
    this.addSql(`alter table audit_events alter column id drop identity`);
    this.addSql(`create sequence audit_event_ids as bigint owned by audit_events.id`);
    this.addSql(`select setval('audit_event_ids', coalesce((select max(id) from audit_events), 0) + 1, false)`);
    this.addSql(`alter table audit_events add column hash text`);

    this.addSql(`
      create function audit_event_canonical(e audit_events) returns text language sql immutable as $$
        select jsonb_build_array(
          e.id, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), e.action, e.tenant_id,
          e.project_id, e.actor_id, e.actor_name, e.actor_type, e.target_id, e.target_type, e.target_name, e.product,
          e.metadata, e.source_ip, e.user_agent)::text
      $$`);
    this.addSql(`
      create function audit_event_hash(previous_hash text, e audit_events) returns text language sql immutable as $$
        select encode(sha256(convert_to(previous_hash || audit_event_canonical(e), 'UTF8')), 'hex')
      $$`);
    this.addSql(`
      create table audit_chain_head (
        singleton boolean primary key default true check (singleton),
        last_id bigint not null,
        last_hash text not null
      )`);

    // Existing events are chained in id order, once, with the append-only trigger lifted for this migration alone.
    this.addSql(`alter table audit_events disable trigger audit_events_append_only`);
    this.addSql(`
      do $$
      declare
        previous text := repeat('0', 64);
        event audit_events;
        last bigint := 0;
      begin
        for event in select * from audit_events order by id loop
          previous := audit_event_hash(previous, event);
          update audit_events set hash = previous where id = event.id;
          last := event.id;
        end loop;
        insert into audit_chain_head (last_id, last_hash) values (last, previous);
      end $$`);
    this.addSql(`alter table audit_events enable trigger audit_events_append_only`);
    this.addSql(`alter table audit_events alter column hash set not null`);

    // The running hash of this transaction's appends is kept in a transaction-local setting rather than written to
    // the head row per event (a million-row statement would otherwise leave a million versions of that one row);
    // the head is written once per statement, and the lock taken with the first event is held until commit.
    this.addSql(`
      create function audit_events_chain() returns trigger language plpgsql as $$
      declare
        previous text := nullif(current_setting('audit.chain_hash', true), '');
      begin
        if previous is null then
          select last_hash into previous from audit_chain_head for update;
        end if;
        new.id := nextval('audit_event_ids');
        new.hash := audit_event_hash(previous, new);
        perform set_config('audit.chain_hash', new.hash, true);
        perform set_config('audit.chain_id', new.id::text, true);
        return new;
      end $$`);
    this.addSql(`create trigger audit_events_chain before insert on audit_events for each row execute function audit_events_chain()`);
    this.addSql(`
      create function audit_events_chain_head() returns trigger language plpgsql as $$
      begin
        update audit_chain_head set last_id = current_setting('audit.chain_id')::bigint, last_hash = current_setting('audit.chain_hash');
        return null;
      end $$`);
    this.addSql(`create trigger audit_events_chain_head after insert on audit_events for each statement execute function audit_events_chain_head()`);

    this.addSql(`
      create table audit_idempotency_keys (
        scope text not null,
        key text not null,
        request_hash text not null,
        event_id bigint,
        created_at timestamptz not null default now(),
        primary key (scope, key)
      )`);
    this.addSql(`create index audit_idempotency_keys_created_idx on audit_idempotency_keys (created_at)`);
  }
}
