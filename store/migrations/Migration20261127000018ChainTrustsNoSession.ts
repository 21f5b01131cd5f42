import { Migration } from '@mikro-orm/migrations';

/**
 * The chain triggers trust nothing of the session that inserts (SPEC-EXTENSIONS §12). They kept a statement's running
 * hash and id in session settings, which the runtime role can set too: a forged `audit.chain_hash` chained its next
 * event from any hash, a forged `audit.chain_id` moved the head on an empty insert. And running as the owner with
 * the caller's search_path, they resolved unqualified names (sha256, inside audit_event_hash) in a schema the caller
 * put first: its function then ran with the owner's rights.
 *
 * Now each row takes its predecessor from the rows themselves: under the head's lock, the newest event above the
 * head is one this statement chained (the head moves at the end of each statement, and nobody else appends while the
 * lock is held), else the head is. The head is moved from the statement's transition table, which only the insert
 * fills. Both functions pin their search_path (pg_temp last): no session value remains for a SET clause to undo.
 */
export class Migration20261127000018ChainTrustsNoSession extends Migration {
  override name = 'Migration20261127000018ChainTrustsNoSession';

  up(): void {
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
        return new;
      end $$`);
    this.addSql(`
      create or replace function public.audit_events_chain_head() returns trigger
        language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
      begin
        update public.audit_chain_head h set last_id = c.id, last_hash = c.hash
          from (select id, hash from chained order by id desc limit 1) c;
        return null;
      end $$`);
    this.addSql(`drop trigger audit_events_chain_head on public.audit_events`);
    this.addSql(`
      create trigger audit_events_chain_head after insert on public.audit_events
        referencing new table as chained for each statement execute function public.audit_events_chain_head()`);
    this.addSql(`revoke execute on function public.audit_events_chain() from public`);
    this.addSql(`revoke execute on function public.audit_events_chain_head() from public`);
  }
}
