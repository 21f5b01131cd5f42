import { Migration } from '@mikro-orm/migrations';

/**
 * `recorded_by`: who wrote an event (the authenticated token's client, or the service itself), a column no request
 * body can set, unlike actor_id which a product may use for its own users. It joins the chained content only when
 * present, so the hashes of earlier events, written without it, still verify.
 */
export class Migration20261122000012AuditRecordedBy extends Migration {
  override name = 'Migration20261122000012AuditRecordedBy';

  up(): void {
    this.addSql(`alter table audit_events add column recorded_by text`);
    this.addSql(`
      create or replace function audit_event_canonical(e audit_events) returns text language sql immutable as $$
        select case when e.recorded_by is null then base::text else (base || jsonb_build_array(e.recorded_by))::text end
          from (select jsonb_build_array(
            e.id, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), e.action, e.tenant_id,
            e.project_id, e.actor_id, e.actor_name, e.actor_type, e.target_id, e.target_type, e.target_name, e.product,
            e.metadata, e.source_ip, e.user_agent) as base) as canonical
      $$`);
  }
}
