import { Migration } from '@mikro-orm/migrations';

/**
 * Tenants' SSO connections (SPEC-EXTENSIONS §9): the customer's OIDC issuer with the endpoints its discovery document
 * gave, the client's secret sealed with REGISTRY_SECRET_KEYS (bound to the row), the verified domains it signs in.
 * The actor's `syncSso` makes its identity provider in Keycloak (and in the simulated provider, its table) match it.
 */
export class Migration20261129000025SsoConnections extends Migration {
  override name = 'Migration20261129000025SsoConnections';

  up(): void {
    this.addSql(`
      create table sso_connections (
        id uuid primary key,
        tenant_id uuid not null references tenants (id),
        protocol text not null default 'oidc' check (protocol = 'oidc'),
        issuer text not null,
        client_id text not null,
        client_secret_sealed text not null,
        endpoints jsonb not null,
        domains text[] not null default '{}',
        state text not null check (state in ('active', 'inactive')),
        idp_alias text not null unique,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index sso_connections_tenant_idx on sso_connections (tenant_id, created_at)`);

    this.addSql(`alter table tenant_actor_outbox drop constraint if exists tenant_actor_outbox_command_check`);
    this.addSql(`alter table tenant_actor_outbox add constraint tenant_actor_outbox_command_check
      check (command in ('provision', 'pushClaims', 'syncMember', 'sendInvitation', 'syncDomains', 'syncSso'))`);

    this.addSql(`
      create table idp_sim_identity_providers (
        alias text primary key,
        organization_id uuid not null references idp_sim_organizations (id) on delete cascade,
        config jsonb not null,
        enabled boolean not null,
        created_at timestamptz not null default clock_timestamp()
      )`);
  }
}
