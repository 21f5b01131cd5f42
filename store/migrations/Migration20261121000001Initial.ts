import { Migration } from '@mikro-orm/migrations';

/** The registry's tables, the indexes its listings and hot paths need, and the audit log's append-only guard. */
export class Migration20261121000001Initial extends Migration {
  override name = 'Migration20261121000001Initial';

  up(): void {
    this.addSql(`
      create table tenants (
        id uuid primary key,
        slug text not null unique,
        name text not null,
        status text not null check (status in ('demo','trial','active','frozen','archived')),
        kind text not null check (kind in ('customer','demo')),
        plan text not null,
        erp_customer_id text,
        payment_cust_id text,
        trial_ends_at timestamptz,
        contract_start date,
        contract_end date,
        sales_owner text,
        admin_email text,
        admin_name text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`
      create table catalog_products (
        key text primary key,
        name text not null,
        description text not null,
        plans_required text[] not null default '{}',
        demo_url text,
        supports_trial boolean not null,
        position integer not null
      )`);
    this.addSql(`
      create table tenant_products (
        tenant_id uuid not null references tenants(id),
        product text not null,
        enabled boolean not null,
        config jsonb not null default '{}',
        expires_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (tenant_id, product)
      )`);
    this.addSql(`
      create table api_keys (
        id uuid primary key,
        tenant_id uuid not null references tenants(id),
        product text,
        name text not null,
        scopes text[] not null default '{}',
        prefix text not null unique,
        key_hash bytea not null,
        created_by text,
        last_used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null
      )`);
    this.addSql(`create index api_keys_tenant_idx on api_keys (tenant_id, created_at desc, id)`);
    this.addSql(`
      create table audit_events (
        id bigint generated always as identity primary key,
        action text not null,
        tenant_id uuid,
        project_id uuid,
        actor_id text,
        actor_name text,
        actor_type text,
        target_id text,
        target_type text,
        target_name text,
        product text,
        metadata jsonb,
        source_ip text,
        user_agent text,
        created_at timestamptz not null default clock_timestamp()
      )`);
    // One index per filter, each ending in id so a filtered page is a keyset range scan newest-first.
    for (const column of ['tenant_id', 'product', 'actor_id', 'action', 'created_at']) {
      this.addSql(`create index audit_events_${column}_idx on audit_events (${column}, id)`);
    }
    this.addSql(`
      create function audit_events_reject_change() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_events is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
      end $$`);
    this.addSql(`create trigger audit_events_append_only before update or delete on audit_events
      for each row execute function audit_events_reject_change()`);
    this.addSql(`create trigger audit_events_no_truncate before truncate on audit_events
      for each statement execute function audit_events_reject_change()`);
  }
}
