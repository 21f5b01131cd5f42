import { Migration } from '@mikro-orm/migrations';

/**
 * What the registry keeps of each deleted SSO connection: its identity provider alias with its tenant, so a sign-in
 * through an identity provider the provider still has is refused, not taken for a broker that is no tenant's
 * (SPEC-EXTENSIONS §13). Written in the delete's transaction; the connections deleted before this migration are taken
 * from their `sso.connection_deleted` events.
 */
export class Migration20261206000036DeletedSsoConnections extends Migration {
  override name = 'Migration20261206000036DeletedSsoConnections';

  up(): void {
    this.addSql(`
      create table deleted_sso_connections (
        idp_alias text primary key,
        id uuid not null,
        tenant_id uuid not null references tenants (id),
        issuer text not null,
        client_id text not null,
        domains text[] not null default '{}',
        deleted_at timestamptz not null
      )`);
    this.addSql(`
      insert into deleted_sso_connections (idp_alias, id, tenant_id, issuer, client_id, domains, deleted_at)
      select distinct on (e.metadata->>'idp_alias')
             e.metadata->>'idp_alias', e.target_id::uuid, e.tenant_id, coalesce(e.metadata->>'issuer', e.target_name, ''),
             coalesce(e.metadata->>'client_id', ''),
             coalesce(array(select jsonb_array_elements_text(case when jsonb_typeof(e.metadata->'domains') = 'array' then e.metadata->'domains' else '[]'::jsonb end)), '{}'),
             e.created_at
        from audit_events e
       where e.action = 'sso.connection_deleted' and e.target_type = 'sso_connection' and e.tenant_id is not null
         and e.metadata->>'idp_alias' is not null
         and e.target_id ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
       order by e.metadata->>'idp_alias', e.id desc`);
  }
}
