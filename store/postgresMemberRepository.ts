import type { MemberRecord, MemberSource, MemberStatus } from '../domain/members/memberRecord.ts';
import type {
  MemberChange,
  MemberChangeFacts,
  MemberChangeWritten,
  ListedMember,
  MemberListFilter,
  MemberListPosition,
  MemberRepository,
} from '../domain/members/memberRepository.ts';
import { memberAuditEvent } from '../domain/members/memberAuditEvent.ts';
import { TENANT_ADMIN_ROLE } from '../domain/members/tenantAdminRole.ts';
import type { DirectoryUser } from '../domain/members/userDirectory.ts';
import { SYSTEM_ACTOR, type RequestMeta } from '../domain/requestMeta.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { ReadBatcher } from './readBatcher.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import { enqueueActorCommand } from './postgresActorOutbox.ts';
import type { Sql } from './sql.ts';
import { isUuid } from './uuidShape.ts';

/**
 * A member with its roles' slugs and their permissions' union, each sorted with the C collation (code-point order, as
 * domain/members/memberRoles.ts sorts) whatever the database's locale.
 */
const MEMBER_COLUMNS = `m.tenant_id, m.user_id, m.email, m.name, m.status, m.source, m.break_glass, m.created_at, m.updated_at,
  array(select r.slug from member_roles mr join roles r on r.id = mr.role_id
         where mr.tenant_id = m.tenant_id and mr.user_id = m.user_id order by r.slug collate "C") as roles,
  array(select distinct g.permission collate "C" from member_roles mr join role_permissions g on g.role_id = mr.role_id
         where mr.tenant_id = m.tenant_id and mr.user_id = m.user_id order by 1) as permissions`;

interface MemberRow {
  tenant_id: string;
  user_id: string;
  email: string;
  name: string;
  status: MemberStatus;
  source: MemberSource;
  break_glass: boolean;
  roles: string[];
  permissions: string[];
  /** Timestamps may arrive as text from the pool: read them through `new Date()`. */
  created_at: Date | string;
  updated_at: Date | string;
}

const memberRowToRecord = (r: MemberRow): MemberRecord => ({
  tenantId: r.tenant_id,
  userId: r.user_id,
  email: r.email,
  name: r.name,
  roles: r.roles,
  permissions: r.permissions,
  status: r.status,
  source: r.source,
  breakGlass: r.break_glass,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/**
 * One change of a tenant's members at a time: a transaction-level advisory lock on the tenant, so two changes cannot
 * both count the same active administrators and both pass the last-admin rule. Tenant changes do not wait on it.
 */
export async function lockMembersOf(sql: Sql, tenantId: string): Promise<void> {
  await sql.query({ name: 'members_tenant_lock', text: `select pg_advisory_xact_lock(hashtextextended('members.tenant:' || $1, 0))`, values: [tenantId] });
}

export async function memberOf(sql: Sql, tenantId: string, userId: string): Promise<MemberRecord | undefined> {
  const { rows: [row] } = await sql.query<MemberRow>({
    name: 'member_find',
    text: `select ${MEMBER_COLUMNS} from members m where m.tenant_id = $1 and m.user_id = $2`,
    values: [tenantId, userId],
  });
  return row && memberRowToRecord(row);
}

/** The named roles the tenant has (its own or shared), each locked (FOR SHARE) until the transaction ends so none is deleted meanwhile. */
/** The tenant's member holding this e-mail (lower-cased), if any. */
export async function memberWithEmail(sql: Sql, tenantId: string, email: string): Promise<MemberRecord | undefined> {
  const { rows: [row] } = await sql.query<MemberRow>({
    name: 'member_with_email',
    text: `select ${MEMBER_COLUMNS} from members m where m.tenant_id = $1 and lower(m.email) = $2 order by m.created_at limit 1`,
    values: [tenantId, email],
  });
  return row && memberRowToRecord(row);
}

export async function lockKnownRoles(sql: Sql, tenantId: string, slugs: string[]): Promise<Map<string, string[]>> {
  if (slugs.length === 0) return new Map();
  const { rows } = await sql.query<{ slug: string; permissions: string[] }>({
    name: 'member_roles_known',
    text: `select r.slug, array(select g.permission from role_permissions g where g.role_id = r.id order by g.permission collate "C") as permissions
             from roles r where r.slug = any($2::text[]) and (r.tenant_id is null or r.tenant_id = $1) for share of r`,
    values: [tenantId, slugs],
  });
  return new Map(rows.map((row) => [row.slug, row.permissions]));
}

/** Writes the member's row, and its roles when they differ from `before`'s. */
export async function writeMember(sql: Sql, member: MemberRecord, before: MemberRecord | undefined): Promise<void> {
  await sql.query({
    name: 'member_put',
    text: `insert into members (tenant_id, user_id, email, name, status, source, created_at, updated_at, break_glass)
           values ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::boolean, false))
           on conflict (tenant_id, user_id) do update set email = excluded.email, name = excluded.name, status = excluded.status,
             source = excluded.source, updated_at = excluded.updated_at, break_glass = coalesce($9::boolean, members.break_glass)`,
    values: [member.tenantId, member.userId, member.email, member.name, member.status, member.source, member.createdAt, member.updatedAt, member.breakGlass ?? null],
  });
  if (before && before.roles.join(' ') === member.roles.join(' ')) return;
  const values = [member.tenantId, member.userId, member.roles];
  await sql.query({
    name: 'member_roles_trim',
    text: `delete from member_roles mr using roles r
            where r.id = mr.role_id and mr.tenant_id = $1 and mr.user_id = $2 and not (r.slug = any($3::text[]))`,
    values,
  });
  await sql.query({
    name: 'member_roles_add',
    text: `insert into member_roles (tenant_id, user_id, role_id)
           select $1, $2, r.id from roles r where r.slug = any($3::text[]) and (r.tenant_id is null or r.tenant_id = $1)
           on conflict do nothing`,
    values,
  });
}

/**
 * The members of tenants and their roles. Every change runs in one transaction of the pool's (nativeTransaction):
 * the tenant's members locked, the member written with its roles, its audit event and the `syncMember` hand-off.
 */
export class PostgresMemberRepository implements MemberRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async find(tenantId: string, userId: string): Promise<MemberRecord | undefined> {
    if (!isUuid(tenantId)) return undefined;
    return memberOf(await nativePool(this.#orm), tenantId, userId);
  }

  /** Claims' read of a user's grants the cache lacks; the users asked for together share one statement. */
  async ofUser(userId: string): Promise<MemberRecord[]> {
    return (await this.#ofUsers.load(userId)) ?? [];
  }

  readonly #ofUsers = new ReadBatcher<string, MemberRecord[]>(async (userIds) => {
    const { rows } = await (await nativePool(this.#orm)).query<MemberRow>({
      name: 'members_of_users',
      text: `select ${MEMBER_COLUMNS} from members m where m.user_id = any($1::text[]) order by m.user_id, m.tenant_id`,
      values: [userIds],
    });
    const byUser = new Map<string, MemberRecord[]>();
    for (const row of rows) {
      const records = byUser.get(row.user_id);
      if (records) records.push(memberRowToRecord(row));
      else byUser.set(row.user_id, [memberRowToRecord(row)]);
    }
    return byUser;
  });

  async allOfTenant(tenantId: string): Promise<MemberRecord[]> {
    if (!isUuid(tenantId)) return [];
    const { rows } = await (await nativePool(this.#orm)).query<MemberRow>({
      name: 'members_of_tenant',
      text: `select ${MEMBER_COLUMNS} from members m where m.tenant_id = $1 order by m.user_id collate "C"`,
      values: [tenantId],
    });
    return rows.map(memberRowToRecord);
  }

  /**
   * The page in one statement; only an empty one asks whether the tenant exists. Ordered with the pattern operators
   * (`~<~`: byte order, which for UTF-8 is code-point order, as the C collation's), which the migration's index on
   * (tenant_id, lower(email) text_pattern_ops, user_id) serves: a page reads its rows in order and stops, where an
   * ORDER BY of a collation sorted every member of the tenant, most of what a page cost.
   */
  async page(
    tenantId: string,
    filter: MemberListFilter,
    after: MemberListPosition | undefined,
    limit: number,
  ): Promise<{ member: MemberRecord; position: MemberListPosition }[] | undefined> {
    if (!isUuid(tenantId)) return undefined;
    const params: unknown[] = [tenantId];
    const param = (value: unknown) => `$${params.push(value)}`;
    const conditions = ['m.tenant_id = $1'];
    let shape = '';
    if (filter.status !== undefined) {
      conditions.push(`m.status = ${param(filter.status)}`);
      shape += '_status';
    }
    if (filter.role !== undefined) {
      conditions.push(`exists (select 1 from member_roles mr join roles r on r.id = mr.role_id
                                where mr.tenant_id = m.tenant_id and mr.user_id = m.user_id and r.slug = ${param(filter.role)})`);
      shape += '_role';
    }
    if (filter.prefix !== undefined) {
      // LIKE's own wildcards in the caller's text are literal characters.
      const pattern = param(`${filter.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      conditions.push(`(lower(m.email) like lower(${pattern}) or lower(m.name) like lower(${pattern}))`);
      shape += '_prefix';
    }
    if (after) {
      const email = param(after.email);
      // The first condition alone is a range of the index; the second drops the run of that e-mail up to the user id.
      conditions.push(`lower(m.email) ~>=~ ${email} and (lower(m.email) ~>~ ${email} or m.user_id ~>~ ${param(after.userId)})`);
      shape += '_after';
    }
    const pool = await nativePool(this.#orm);
    const { rows } = await pool.query<MemberRow & { position_email: string }>({
      name: `member_page${shape}`,
      text: `select ${MEMBER_COLUMNS}, lower(m.email) as position_email from members m where ${conditions.join(' and ')}
              order by lower(m.email) using ~<~, m.user_id using ~<~ limit ${param(limit)}`,
      values: params,
    });
    if (rows.length === 0) {
      const { rows: [tenant] } = await pool.query<{ found: boolean }>({
        name: 'member_page_tenant',
        text: 'select exists (select 1 from tenants where id = $1) as found',
        values: [tenantId],
      });
      return tenant!.found ? [] : undefined;
    }
    return rows.map((row) => ({ member: memberRowToRecord(row), position: { email: row.position_email, userId: row.user_id } }));
  }

  /**
   * The count first, from the primary key's index alone: a tenant too large to hold costs no row of its members.
   * The rows in the page's order (see `page`), with the lowered e-mail and name its filters compare.
   */
  async listing(tenantId: string, atMost: number): Promise<ListedMember[] | 'tooMany' | undefined> {
    if (!isUuid(tenantId)) return undefined;
    const pool = await nativePool(this.#orm);
    const { rows: [tenant] } = await pool.query<{ found: boolean; members: string }>({
      name: 'member_listing_counted',
      text: 'select exists (select 1 from tenants where id = $1) as found, (select count(*) from members where tenant_id = $1) as members',
      values: [tenantId],
    });
    if (!tenant!.found) return undefined;
    if (Number(tenant!.members) > atMost) return 'tooMany';
    const { rows } = await pool.query<MemberRow & { position_email: string; lower_name: string }>({
      name: 'member_listing',
      text: `select ${MEMBER_COLUMNS}, lower(m.email) as position_email, lower(m.name) as lower_name from members m where m.tenant_id = $1
              order by lower(m.email) using ~<~, m.user_id using ~<~`,
      values: [tenantId],
    });
    return rows.map((row) => ({ member: memberRowToRecord(row), position: { email: row.position_email, userId: row.user_id }, lowerName: row.lower_name }));
  }

  change<T>(
    tenantId: string,
    userId: string,
    meta: RequestMeta,
    namedRoles: string[],
    decide: (facts: MemberChangeFacts, now: Date) => MemberChange<T>,
  ): Promise<MemberChangeWritten<T> | undefined> {
    if (!isUuid(tenantId)) return Promise.resolve(undefined);
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [tenant] } = await sql.query<{ found: boolean }>({
        name: 'member_change_tenant',
        text: 'select exists (select 1 from tenants where id = $1) as found',
        values: [tenantId],
      });
      if (!tenant!.found) return undefined;
      await lockMembersOf(sql, tenantId);
      // Read after the lock is held, in statements of their own: a change that waited reads what the one before it wrote.
      const { rows: [counted] } = await sql.query<{ members: string; active_admins: string }>({
        name: 'members_counted_for_change',
        text: `select count(*) as members,
                      count(*) filter (where m.status = 'active' and exists (
                        select 1 from member_roles mr join roles r on r.id = mr.role_id
                         where mr.tenant_id = m.tenant_id and mr.user_id = m.user_id and r.slug = $2 and r.tenant_id is null)) as active_admins
                 from members m where m.tenant_id = $1`,
        values: [tenantId, TENANT_ADMIN_ROLE],
      });
      const member = await memberOf(sql, tenantId, userId);
      const knownRoles = await lockKnownRoles(sql, tenantId, [...new Set(namedRoles)]);
      const change = decide({ member, members: Number(counted!.members), activeAdmins: Number(counted!.active_admins), knownRoles }, new Date());
      if (change.remove) {
        await sql.query({ name: 'member_delete', text: 'delete from members where tenant_id = $1 and user_id = $2', values: [tenantId, userId] });
      } else if (change.put) {
        await writeMember(sql, change.put, member);
      }
      if (change.event) await appendAuditEvent(sql, change.event, meta);
      if (!change.remove && !change.put) return { result: change.result, handOffs: [] };
      return { result: change.result, handOffs: [await enqueueActorCommand(sql, tenantId, { kind: 'syncMember', user_id: userId })] };
    });
  }
}
