import { Migration } from '@mikro-orm/migrations';

/**
 * A tenant's audit retention (SPEC-EXTENSIONS §16): `audit_remove_expired` appends a checkpoint and removes the
 * tenant's events older than its `settings.audit_retention_days`, as the schema's owner (the runtime role may still
 * neither UPDATE nor DELETE an event). The chain is one over every tenant, so a removed event is the predecessor of a
 * remaining one, often another tenant's: its hash is kept in `audit_chain_links` for that successor, and the integrity
 * check and the events feed take a successor's predecessor hash from there. Only this function writes the links.
 *
 * The append-only trigger lets a DELETE through only while this function has set `registry.retention_purge` for its
 * transaction; the runtime role can set that too, but has no DELETE privilege for it to matter.
 */
export class Migration20261208000044AuditRetention extends Migration {
  override name = 'Migration20261208000044AuditRetention';

  up(): void {
    this.addSql(`
      create table audit_chain_links (
        id bigint primary key,
        previous_hash text not null
      )`);
    this.addSql(`
      create or replace function audit_events_reject_change() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' and current_setting('registry.retention_purge', true) = 'on' then
          return old;
        end if;
        raise exception 'audit_events is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
      end $$`);
    this.addSql(`
      create or replace function public.audit_remove_expired(
        p_tenant uuid, p_as_of timestamptz, p_actor_id text, p_actor_type text, p_recorded_by text
      ) returns table (checkpoint_id bigint, removed bigint)
        language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
      declare
        keep_days int;
        removed_before timestamptz;
        first_id bigint;
        last_id bigint;
        doomed bigint;
        checkpoint_event bigint;
      begin
        select (t.settings->>'audit_retention_days')::int into keep_days from public.tenants t
          where t.id = p_tenant and jsonb_typeof(t.settings->'audit_retention_days') = 'number';
        if keep_days is null then
          return;
        end if;
        removed_before := p_as_of - make_interval(days => keep_days);
        select min(e.id), max(e.id), count(*) into first_id, last_id, doomed from public.audit_events e
          where e.tenant_id = p_tenant and e.created_at < removed_before;
        if doomed = 0 then
          return;
        end if;
        insert into public.audit_events (action, tenant_id, actor_id, actor_type, target_id, target_type, metadata, recorded_by)
          values ('audit.retention_checkpoint', p_tenant, p_actor_id, p_actor_type, p_tenant::text, 'tenant',
                  jsonb_build_object('retention_days', keep_days,
                                     'removed_before', to_char(removed_before at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                     'removed_count', doomed, 'first_removed_id', first_id, 'last_removed_id', last_id),
                  p_recorded_by)
          returning id into checkpoint_event;
        -- Each remaining event right after a removed one keeps that one's hash, unless its own predecessor was removed
        -- before (then its link already names it).
        insert into public.audit_chain_links (id, previous_hash)
          select n.id, d.hash from public.audit_events d
            cross join lateral (select e.id, e.tenant_id, e.created_at from public.audit_events e where e.id > d.id order by e.id limit 1) n
           where d.tenant_id = p_tenant and d.created_at < removed_before and d.id < checkpoint_event
             and not (n.tenant_id is not distinct from p_tenant and n.created_at < removed_before and n.id < checkpoint_event)
          on conflict (id) do nothing;
        delete from public.audit_chain_links l using public.audit_events e
          where l.id = e.id and e.tenant_id = p_tenant and e.created_at < removed_before and e.id < checkpoint_event;
        perform set_config('registry.retention_purge', 'on', true);
        delete from public.audit_events e where e.tenant_id = p_tenant and e.created_at < removed_before and e.id < checkpoint_event;
        perform set_config('registry.retention_purge', 'off', true);
        return query select checkpoint_event, doomed;
      end $$`);
  }
}
