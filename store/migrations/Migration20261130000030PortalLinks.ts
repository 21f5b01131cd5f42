import { Migration } from '@mikro-orm/migrations';

/**
 * The self-serve admin portal (SPEC-EXTENSIONS §11): single-use links for a tenant's IT admin, valid for minutes, and
 * the sessions they open (30 minutes idle). Secrets are kept only as their SHA-256.
 */
export class Migration20261130000030PortalLinks extends Migration {
  override name = 'Migration20261130000030PortalLinks';

  up(): void {
    this.addSql(`
      create table portal_links (
        id uuid primary key,
        tenant_id uuid not null references tenants (id),
        intent text not null check (intent in ('members', 'invitations', 'domains', 'sso', 'directory', 'audit')),
        token_hash bytea not null unique,
        return_url text,
        created_by text not null,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null
      )`);
    this.addSql(`create index portal_links_tenant_idx on portal_links (tenant_id, created_at)`);
    this.addSql(`
      create table portal_sessions (
        id uuid primary key,
        link_id uuid not null references portal_links (id),
        tenant_id uuid not null references tenants (id),
        intent text not null,
        session_hash bytea not null unique,
        csrf_token text not null,
        created_by text not null,
        return_url text,
        last_seen_at timestamptz not null,
        created_at timestamptz not null
      )`);
  }
}
