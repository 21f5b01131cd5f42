import type { DirectoryUserRecord } from '../domain/directories/directoryUserRecord.ts';
import type { DirectoryUserChange, DirectoryUserFilter, DirectoryUserRepository } from '../domain/directories/directoryUserRepository.ts';
import type { QueuedActorCommand } from '../domain/changeEffects/changeEffects.ts';
import { conflict } from '../domain/errors.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import { enqueueActorCommand } from './postgresActorOutbox.ts';
import { isUuid } from './uuidShape.ts';

const COLUMNS = 'directory_id, id, user_name, external_id, active, resource, user_id, owned, deleted_at, created_at, updated_at';
/** What a read answers beside the columns: the groups the user is in (directory_groups_members_idx). */
const READ_COLUMNS = `${COLUMNS}, (select coalesce(json_agg(json_build_object('id', g.id, 'displayName', g.display_name) order by g.display_name), '[]')
  from directory_groups g where g.directory_id = directory_users.directory_id and g.members @> array[directory_users.id]) as groups`;

interface UserRow {
  directory_id: string;
  id: string;
  user_name: string;
  external_id: string | null;
  active: boolean;
  resource: Record<string, unknown>;
  user_id: string | null;
  owned: boolean;
  deleted_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  groups?: { id: string; displayName: string }[];
}

const rowToRecord = (r: UserRow): DirectoryUserRecord => ({
  id: r.id,
  directoryId: r.directory_id,
  userName: r.user_name,
  externalId: r.external_id,
  active: r.active,
  resource: r.resource,
  userId: r.user_id,
  owned: r.owned,
  deletedAt: r.deleted_at === null ? null : new Date(r.deleted_at),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
  ...(r.groups ? { groups: r.groups } : {}),
});

const UNIQUE_VIOLATION = '23505';

export class PostgresDirectoryUserRepository implements DirectoryUserRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async find(directoryId: string, id: string, deleted = false): Promise<DirectoryUserRecord | undefined> {
    if (!isUuid(directoryId) || !isUuid(id)) return undefined;
    const { rows: [row] } = await (await nativePool(this.#orm)).query<UserRow>({
      name: `directory_user_find${deleted ? '_any' : ''}`,
      text: `select ${READ_COLUMNS} from directory_users where directory_id = $1 and id = $2${deleted ? '' : ' and deleted_at is null'}`,
      values: [directoryId, id],
    });
    return row && rowToRecord(row);
  }

  async page(directoryId: string, filter: DirectoryUserFilter | undefined, startIndex: number, count: number): Promise<{ total: number; users: DirectoryUserRecord[] }> {
    const condition = !filter ? '' : filter.attribute === 'userName' ? ' and lower(user_name) = lower($4)' : ' and external_id = $4';
    const values: unknown[] = [directoryId, count, startIndex - 1, ...(filter ? [filter.value] : [])];
    // The count apart from the page (one read of the directory's index), so the page walks the listing index in its
    // order and stops, where a window count over the page's rows read and sorted every user first.
    const { rows } = await (await nativePool(this.#orm)).query<UserRow & { total: number }>({
      name: `directory_users_page_counted_${filter?.attribute ?? 'all'}`,
      text: `select ${READ_COLUMNS},
                    (select count(*)::int from directory_users where directory_id = $1 and deleted_at is null${condition}) as total
               from directory_users
              where directory_id = $1 and deleted_at is null${condition} order by created_at, id limit $2 offset $3`,
      values,
    });
    if (rows.length > 0) return { total: rows[0]!.total, users: rows.map(rowToRecord) };
    // Past the last page the window has no row to count on.
    const { rows: [counted] } = await (await nativePool(this.#orm)).query<{ total: number }>({
      name: `directory_users_count_${filter?.attribute ?? 'all'}`,
      text: `select count(*)::int as total from directory_users where directory_id = $1 and deleted_at is null${condition.replace('$4', '$2')}`,
      values: [directoryId, ...(filter ? [filter.value] : [])],
    });
    return { total: counted!.total, users: [] };
  }

  change<T>(
    directoryId: string,
    tenantId: string,
    id: string,
    meta: RequestMeta,
    decide: (before: DirectoryUserRecord | undefined, now: Date) => DirectoryUserChange<T>,
  ): Promise<{ result: T; handOffs: QueuedActorCommand[] }> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [row] } = await sql.query<UserRow>({
        name: 'directory_user_locked',
        text: `select ${COLUMNS} from directory_users where directory_id = $1 and id = $2 and deleted_at is null for update`,
        values: [directoryId, id],
      });
      const change = decide(row && rowToRecord(row), new Date());
      if (!change.put) return { result: change.result, handOffs: [] };
      const u = change.put;
      try {
        await sql.query({
          name: 'directory_user_put',
          text: `insert into directory_users (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 on conflict (directory_id, id) do update set user_name = excluded.user_name, external_id = excluded.external_id, active = excluded.active,
                   resource = excluded.resource, deleted_at = excluded.deleted_at, updated_at = excluded.updated_at`,
          values: [u.directoryId, u.id, u.userName, u.externalId, u.active, JSON.stringify(u.resource), u.userId, u.owned, u.deletedAt, u.createdAt, u.updatedAt],
        });
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw conflict(`another user of this directory has the userName ${u.userName}`);
        throw error;
      }
      await sql.query({ name: 'directory_synced', text: 'update directories set last_synced_at = $2 where id = $1', values: [directoryId, u.updatedAt] });
      if (change.event) await appendAuditEvent(sql, change.event, meta);
      const handOff = await enqueueActorCommand(sql, tenantId, { kind: 'syncDirectoryUser', directory_id: directoryId, scim_user_id: u.id });
      return { result: change.result, handOffs: [handOff] };
    });
  }

  async recordUser(directoryId: string, id: string, userId: string, owned: boolean): Promise<void> {
    await (await nativePool(this.#orm)).query({
      name: 'directory_user_record_user',
      // A SCIM user never moves to another account, and `owned` belongs to the account it was made with.
      text: 'update directory_users set user_id = $3, owned = $4 where directory_id = $1 and id = $2 and user_id is null',
      values: [directoryId, id, userId, owned],
    });
  }

  async linkedAccounts(directoryId: string): Promise<{ id: string; userId: string; owned: boolean }[]> {
    if (!isUuid(directoryId)) return [];
    const { rows } = await (await nativePool(this.#orm)).query<{ id: string; user_id: string; owned: boolean }>({
      name: 'directory_linked_accounts',
      text: 'select id, user_id, owned from directory_users where directory_id = $1 and user_id is not null order by id',
      values: [directoryId],
    });
    return rows.map((r) => ({ id: r.id, userId: r.user_id, owned: r.owned }));
  }

  async countOfTenant(tenantId: string): Promise<number> {
    if (!isUuid(tenantId)) return 0;
    const { rows } = await (await nativePool(this.#orm)).query<{ n: number }>({
      name: 'directory_users_of_tenant',
      text: 'select count(*)::int as n from directory_users u join directories d on d.id = u.directory_id where d.tenant_id = $1 and u.deleted_at is null',
      values: [tenantId],
    });
    return rows[0]?.n ?? 0;
  }

  resyncGroupMembers(directoryId: string, tenantId: string, displayNames: readonly string[]): Promise<QueuedActorCommand[]> {
    if (displayNames.length === 0) return Promise.resolve([]);
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows } = await sql.query<{ id: string }>({
        name: 'directory_group_members_to_resync',
        text: `select distinct u.id from directory_groups g join directory_users u on u.directory_id = g.directory_id and u.id = any(g.members)
               where g.directory_id = $1 and g.display_name = any($2::text[]) and u.deleted_at is null order by u.id`,
        values: [directoryId, displayNames],
      });
      const handOffs: QueuedActorCommand[] = [];
      for (const row of rows) handOffs.push(await enqueueActorCommand(sql, tenantId, { kind: 'syncDirectoryUser', directory_id: directoryId, scim_user_id: row.id }));
      return handOffs;
    });
  }

  async purge(directoryId: string, id: string): Promise<void> {
    await (await nativePool(this.#orm)).query({
      name: 'directory_user_purge',
      text: 'delete from directory_users where directory_id = $1 and id = $2 and deleted_at is not null',
      values: [directoryId, id],
    });
  }
}
