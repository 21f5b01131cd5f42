import { Migration } from '@mikro-orm/migrations';

/**
 * State of the simulated identity provider (used when IDP_ADMIN_URL is empty). It lives in PostgreSQL so the API and
 * the Temporal worker see one provider and a restart loses nothing. Uniqueness mirrors Keycloak's realm rules:
 * organization name and alias, username and e-mail (both lowercased) are unique.
 */
export class Migration20261121000003IdpSimulator extends Migration {
  override name = 'Migration20261121000003IdpSimulator';

  up(): void {
    this.addSql(`
      create table idp_sim_organizations (
        id uuid primary key default gen_random_uuid(),
        name text not null unique,
        alias text not null unique,
        attributes jsonb not null default '{}',
        created_at timestamptz not null default clock_timestamp()
      )`);
    // Lookups by attribute (tenant_id) are containment queries: attributes @> '{"tenant_id": [...]}'.
    this.addSql(`create index idp_sim_organizations_attributes_idx on idp_sim_organizations using gin (attributes jsonb_path_ops)`);
    this.addSql(`
      create table idp_sim_users (
        id uuid primary key default gen_random_uuid(),
        username text not null unique check (username = lower(username)),
        email text not null unique check (email = lower(email)),
        first_name text,
        last_name text,
        enabled boolean not null default true,
        email_verified boolean not null default false,
        attributes jsonb not null default '{}',
        realm_roles text[] not null default '{}',
        required_actions text[] not null default '{}',
        created_at timestamptz not null default clock_timestamp()
      )`);
    this.addSql(`create index idp_sim_users_attributes_idx on idp_sim_users using gin (attributes jsonb_path_ops)`);
    this.addSql(`
      create table idp_sim_memberships (
        organization_id uuid not null references idp_sim_organizations(id) on delete cascade,
        user_id uuid not null references idp_sim_users(id) on delete cascade,
        created_at timestamptz not null default clock_timestamp(),
        primary key (organization_id, user_id)
      )`);
    this.addSql(`create index idp_sim_memberships_user_idx on idp_sim_memberships (user_id)`);
    // The captured outbox: what a mail catcher would show for each execute-actions e-mail.
    this.addSql(`
      create table idp_sim_emails (
        id bigint generated always as identity primary key,
        user_id uuid not null references idp_sim_users(id) on delete cascade,
        to_address text not null,
        subject text not null,
        actions text[] not null,
        action_url text not null unique,
        created_at timestamptz not null default clock_timestamp()
      )`);
    this.addSql(`create index idp_sim_emails_to_address_idx on idp_sim_emails (to_address, id)`);
    // Injected failures: step null means any provisioning step; tenant_slug null means any tenant; remaining null means until cleared.
    this.addSql(`
      create table idp_sim_faults (
        id bigint generated always as identity primary key,
        kind text not null check (kind in ('unauthorized','unavailable','organization_exists','user_exists')),
        step text check (step in ('organization','user','membership','invite','list_users','push_claims','memberships','ping')),
        tenant_slug text,
        remaining integer check (remaining > 0),
        created_at timestamptz not null default clock_timestamp()
      )`);
  }
}
