import type { PermissionRecord } from '../domain/roles/permissionRecord.ts';
import type { RoleRecord } from '../domain/roles/roleRecord.ts';
import type { LockedPermission, LockedRole, RoleChange, RoleChangeWritten, RoleCreationFacts, RoleRepository } from '../domain/roles/roleRepository.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { AuditAppend } from '../domain/schemas/audit.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import { enqueueActorCommands } from './postgresActorOutbox.ts';
import type { Orm } from './orm.ts';
import type { Sql } from './sql.ts';

/** Sorted with the C collation, as domain/roles/rolePermissions.ts sorts, whatever the database's locale. */
const ROLE_COLUMNS = `r.id, r.slug, r.name, r.description, r.tenant_id, r.built_in, r.created_at, r.updated_at,
  array(select g.permission from role_permissions g where g.role_id = r.id order by g.permission collate "C") as permissions`;

interface RoleRow {
  id: string;
  slug: string;
  name: string;
  description: string;
  tenant_id: string | null;
  built_in: boolean;
  permissions: string[];
  /** Timestamps may arrive as text from the pool: read them through `new Date()`. */
  created_at: Date | string;
  updated_at: Date | string;
}

const roleRowToRecord = (r: RoleRow): RoleRecord => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  description: r.description,
  permissions: r.permissions,
  tenantId: r.tenant_id,
  builtIn: r.built_in,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

interface PermissionRow {
  slug: string;
  description: string;
  built_in: boolean;
  created_at: Date | string;
}

const permissionRowToRecord = (r: PermissionRow): PermissionRecord => ({
  slug: r.slug,
  description: r.description,
  builtIn: r.built_in,
  createdAt: new Date(r.created_at),
});

/** Which of `slugs` name a permission, each locked (FOR SHARE) until the transaction ends, so none is deleted meanwhile. */
async function lockKnownPermissions(sql: Sql, slugs: string[]): Promise<ReadonlySet<string>> {
  if (slugs.length === 0) return new Set();
  const { rows } = await sql.query<{ slug: string }>({
    name: 'permissions_known_for_role',
    text: 'select slug from permissions where slug = any($1::text[]) for share',
    values: [slugs],
  });
  return new Set(rows.map((row) => row.slug));
}

/** Grants the role `permissions` (those it has already stay as they are). */
async function addGrants(sql: Sql, roleId: string, permissions: string[]): Promise<void> {
  await sql.query({
    name: 'role_grants_add',
    text: 'insert into role_permissions (role_id, permission) select $1, unnest($2::text[]) on conflict do nothing',
    values: [roleId, permissions],
  });
}

/** Makes the role's grants exactly `permissions`. */
async function replaceGrants(sql: Sql, roleId: string, permissions: string[]): Promise<void> {
  await sql.query({
    name: 'role_grants_trim',
    text: 'delete from role_permissions where role_id = $1 and not (permission = any($2::text[]))',
    values: [roleId, permissions],
  });
  await addGrants(sql, roleId, permissions);
}

/**
 * How many members hold the role, counted under the role's lock: a member given the role locks it first (FOR SHARE,
 * store/postgresMemberRepository.ts), so the count includes every one committed and none can be given it meanwhile.
 */
async function membersHolding(sql: Sql, roleId: string): Promise<number> {
  const { rows: [held] } = await sql.query<{ members: string }>({
    name: 'role_held_by',
    text: 'select count(*) as members from member_roles where role_id = $1',
    values: [roleId],
  });
  return Number(held!.members);
}

/**
 * How many tenants name the role as their default_role, read under the role's lock (a tenant's role: its own tenant
 * only, as a tenant's setting may name only its own or a shared role).
 */
async function tenantsDefaulting(sql: Sql, role: RoleRow): Promise<number> {
  const { rows: [found] } = await sql.query<{ tenants: string }>({
    name: 'role_default_of_tenants',
    text: `select count(*) as tenants from tenants where settings->>'default_role' = $1 and ($2::uuid is null or id = $2::uuid)`,
    values: [role.slug, role.tenant_id],
  });
  return Number(found!.tenants);
}

/** The tenants where a member holds the role. */
async function tenantsHolding(sql: Sql, roleId: string): Promise<string[]> {
  const { rows } = await sql.query<{ tenant_id: string }>({
    name: 'role_held_in_tenants',
    text: 'select distinct tenant_id from member_roles where role_id = $1',
    values: [roleId],
  });
  return rows.map((row) => row.tenant_id);
}

/**
 * Permissions, roles and the grants between them. Every change runs with its audit event in one transaction of the
 * pool's (nativeTransaction), the row it changes locked, so each event sees its own before-state.
 */
export class PostgresRoleRepository implements RoleRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async listPermissions(): Promise<PermissionRecord[]> {
    const { rows } = await (await nativePool(this.#orm)).query<PermissionRow>({
      name: 'permissions_list',
      text: 'select slug, description, built_in, created_at from permissions order by slug collate "C"',
      values: [],
    });
    return rows.map(permissionRowToRecord);
  }

  insertPermission(permission: PermissionRecord, event: AuditAppend, meta: RequestMeta): Promise<boolean> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows } = await sql.query<{ slug: string }>({
        name: 'permission_insert',
        text: `insert into permissions (slug, description, built_in, created_at) values ($1, $2, $3, $4)
               on conflict (slug) do nothing returning slug`,
        values: [permission.slug, permission.description, permission.builtIn, permission.createdAt],
      });
      if (rows.length === 0) return false;
      await appendAuditEvent(sql, event, meta);
      return true;
    });
  }

  /**
   * The permission's row lock waits for a role being given it to commit, and holds off any role given it later (they
   * lock the permissions they are given, lockKnownPermissions). Its grants are counted after the lock is held, in a
   * statement of its own: one that waited for the lock reads what the role it waited for committed.
   */
  removePermission(slug: string, meta: RequestMeta, decide: (permission: LockedPermission) => AuditAppend): Promise<boolean> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [row] } = await sql.query<PermissionRow>({
        name: 'permission_for_delete',
        text: 'select slug, description, built_in, created_at from permissions where slug = $1 for update',
        values: [slug],
      });
      if (!row) return false;
      const { rows: [granted] } = await sql.query<{ roles: string }>({
        name: 'permission_granted_by',
        text: 'select count(*) as roles from role_permissions where permission = $1',
        values: [slug],
      });
      const event = decide({ ...permissionRowToRecord(row), grantedByRoles: Number(granted!.roles) });
      await sql.query({ name: 'permission_delete', text: 'delete from permissions where slug = $1', values: [slug] });
      await appendAuditEvent(sql, event, meta);
      return true;
    });
  }

  async listRoles(tenantId: string | undefined): Promise<RoleRecord[] | undefined> {
    const pool = await nativePool(this.#orm);
    if (tenantId === undefined) {
      const { rows } = await pool.query<RoleRow>({
        name: 'roles_shared',
        text: `select ${ROLE_COLUMNS} from roles r where r.tenant_id is null order by r.slug collate "C"`,
        values: [],
      });
      return rows.map(roleRowToRecord);
    }
    // One statement: the tenant's existence and the roles, so a tenant with no roles of its own still lists the shared ones.
    const { rows } = await pool.query<{ tenant: string | null } & { [K in keyof RoleRow]: RoleRow[K] | null }>({
      name: 'roles_of_tenant',
      text: `select t.id as tenant, ${ROLE_COLUMNS}
               from (select 1) one
               left join tenants t on t.id = $1
               left join roles r on t.id is not null and (r.tenant_id is null or r.tenant_id = t.id)
              order by r.tenant_id nulls first, r.slug collate "C"`,
      values: [tenantId],
    });
    if (!rows[0]?.tenant) return undefined;
    return rows.filter((row) => row.id !== null).map((row) => roleRowToRecord(row as RoleRow));
  }

  /**
   * Roles of one slug, shared or of any tenant, take turns through a transaction-level advisory lock on the slug: the
   * partial unique indexes hold the rule within each kind, but not across them, which this check under the lock does.
   */
  insertRole(
    asked: { slug: string; tenantId: string | null; permissions: string[] },
    meta: RequestMeta,
    decide: (facts: RoleCreationFacts, now: Date) => { role: RoleRecord; event: AuditAppend },
  ): Promise<RoleRecord> {
    return nativeTransaction(this.#orm, async (sql) => {
      await sql.query({ name: 'role_slug_lock', text: `select pg_advisory_xact_lock(hashtextextended('roles.slug:' || $1, 0))`, values: [asked.slug] });
      const { rows: [found] } = await sql.query<{ tenant_exists: boolean; slug_taken_in: (string | null)[] }>({
        name: 'role_creation_facts',
        text: `select ($2::uuid is null or exists (select 1 from tenants where id = $2::uuid)) as tenant_exists,
                      array(select tenant_id from roles where slug = $1) as slug_taken_in`,
        values: [asked.slug, asked.tenantId],
      });
      const knownPermissions = await lockKnownPermissions(sql, asked.permissions);
      const { role, event } = decide({ tenantExists: found!.tenant_exists, slugTakenIn: found!.slug_taken_in, knownPermissions }, new Date());
      await sql.query({
        name: 'role_insert',
        text: `insert into roles (id, slug, name, description, tenant_id, built_in, created_at, updated_at)
               values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        values: [role.id, role.slug, role.name, role.description, role.tenantId, role.builtIn, role.createdAt, role.updatedAt],
      });
      if (role.permissions.length > 0) await addGrants(sql, role.id, role.permissions);
      await appendAuditEvent(sql, event, meta);
      return role;
    });
  }

  changeRole<T>(
    id: string,
    meta: RequestMeta,
    namedPermissions: string[],
    decide: (role: LockedRole, knownPermissions: ReadonlySet<string>, now: Date) => RoleChange<T>,
  ): Promise<RoleChangeWritten<T> | undefined> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: locked } = await sql.query({ name: 'role_lock', text: 'select id from roles where id = $1 for update', values: [id] });
      if (locked.length === 0) return undefined;
      // Read after the lock is held, in a statement of its own: a change that waited reads the grants the one before it wrote.
      const { rows: [row] } = await sql.query<RoleRow>({ name: 'role_for_change', text: `select ${ROLE_COLUMNS} from roles r where r.id = $1`, values: [id] });
      const knownPermissions = await lockKnownPermissions(sql, namedPermissions);
      const change = decide({ ...roleRowToRecord(row!), heldByMembers: await membersHolding(sql, id), defaultOfTenants: await tenantsDefaulting(sql, row!) }, knownPermissions, new Date());
      if (change.remove) {
        await sql.query({ name: 'role_delete', text: 'delete from roles where id = $1', values: [id] });
      } else if (change.update) {
        await sql.query({
          name: 'role_update',
          text: 'update roles set name = $2, description = $3, updated_at = $4 where id = $1',
          values: [id, change.update.name, change.update.description, change.update.updatedAt],
        });
        await replaceGrants(sql, id, change.update.permissions);
      }
      if (change.event) await appendAuditEvent(sql, change.event, meta);
      const handOffs = change.pushClaims ? await enqueueActorCommands(sql, await tenantsHolding(sql, id), { kind: 'pushClaims' }) : [];
      return { result: change.result, changed: Boolean(change.remove || change.update), handOffs };
    });
  }
}
