import { Migration } from '@mikro-orm/migrations';

/**
 * SCIM directories per tenant (SPEC-EXTENSIONS §10): the SHA-256 of the bearer token (and of the one before a
 * rotation, working until its time), the group-to-role mapping; and the users and groups the directory's identity
 * provider keeps there, each with its SCIM resource as last written.
 */
export class Migration20261129000026Directories extends Migration {
  override name = 'Migration20261129000026Directories';

  up(): void {
    this.addSql(`
      create table directories (
        id uuid primary key,
        tenant_id uuid not null references tenants (id),
        state text not null check (state in ('active', 'inactive')),
        group_roles jsonb not null default '{}',
        token_hash bytea not null unique,
        previous_token_hash bytea,
        previous_token_expires_at timestamptz,
        last_synced_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index directories_tenant_idx on directories (tenant_id, created_at)`);
    this.addSql(`
      create table directory_users (
        directory_id uuid not null references directories (id) on delete cascade,
        id uuid not null,
        user_name text not null,
        external_id text,
        active boolean not null default true,
        resource jsonb not null,
        user_id text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (directory_id, id)
      )`);
    this.addSql(`create unique index directory_users_name_idx on directory_users (directory_id, lower(user_name))`);
    this.addSql(`create index directory_users_external_idx on directory_users (directory_id, external_id)`);
    this.addSql(`
      create table directory_groups (
        directory_id uuid not null references directories (id) on delete cascade,
        id uuid not null,
        display_name text not null,
        external_id text,
        members uuid[] not null default '{}',
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (directory_id, id)
      )`);
    this.addSql(`create unique index directory_groups_name_idx on directory_groups (directory_id, display_name)`);
  }
}
