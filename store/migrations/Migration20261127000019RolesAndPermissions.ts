import { Migration } from '@mikro-orm/migrations';

/**
 * Permissions and roles (SPEC-EXTENSIONS §7). A role of no tenant (`tenant_id` null) is shared by every tenant. The
 * slug rules across the two kinds (a tenant's role may not take a shared role's slug, nor a shared role one some
 * tenant uses) need more than an index: store/postgresRoleRepository.ts checks them under a lock on the slug, and
 * these indexes hold the rules within each kind. The built-in permissions and roles are the registry's own.
 */
export class Migration20261127000019RolesAndPermissions extends Migration {
  override name = 'Migration20261127000019RolesAndPermissions';

  up(): void {
    this.addSql(`
      create table permissions (
        slug text primary key check (char_length(slug) <= 100),
        description text not null default '',
        built_in boolean not null default false,
        created_at timestamptz not null default now()
      )`);
    this.addSql(`
      create table roles (
        id uuid primary key,
        slug text not null,
        name text not null,
        description text not null default '',
        tenant_id uuid references tenants (id),
        built_in boolean not null default false,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql(`create unique index roles_shared_slug_unique on roles (slug) where tenant_id is null`);
    this.addSql(`create unique index roles_tenant_slug_unique on roles (tenant_id, slug) where tenant_id is not null`);
    this.addSql(`
      create table role_permissions (
        role_id uuid not null references roles (id) on delete cascade,
        permission text not null references permissions (slug),
        primary key (role_id, permission)
      )`);
    this.addSql(`create index role_permissions_permission_idx on role_permissions (permission)`);

    this.addSql(`
      insert into permissions (slug, description, built_in) values
        ('members:manage', 'manage the tenant''s members and their roles', true),
        ('sso:manage', 'manage the tenant''s verified domains and single sign-on', true),
        ('directory:manage', 'manage the tenant''s directory sync', true),
        ('audit:read', 'read the tenant''s audit log', true)`);
    this.addSql(`
      insert into roles (id, slug, name, description, built_in) values
        (gen_random_uuid(), 'IT_ADMIN', 'IT administrator', 'administers the tenant: its members, single sign-on, directory and audit log', true),
        (gen_random_uuid(), 'MEMBER', 'Member', 'a member of the tenant', true)`);
    this.addSql(`
      insert into role_permissions (role_id, permission)
      select r.id, p.slug from roles r cross join permissions p where r.slug = 'IT_ADMIN' and r.tenant_id is null and p.built_in`);
  }
}
