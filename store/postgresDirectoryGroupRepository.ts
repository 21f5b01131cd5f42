import type { QueuedActorCommand } from '../domain/changeEffects/changeEffects.ts';
import type { DirectoryGroupRecord } from '../domain/directories/directoryGroupRecord.ts';
import type { DirectoryGroupChange, DirectoryGroupFilter, DirectoryGroupRepository } from '../domain/directories/directoryGroupRepository.ts';
import { conflict } from '../domain/errors.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import { enqueueActorCommand } from './postgresActorOutbox.ts';
import { isUuid } from './uuidShape.ts';

const COLUMNS = 'directory_id, id, display_name, external_id, members::text[] as members, created_at, updated_at';

interface GroupRow {
  directory_id: string;
  id: string;
  display_name: string;
  external_id: string | null;
  members: string[];
  created_at: Date | string;
  updated_at: Date | string;
}

const rowToRecord = (r: GroupRow): DirectoryGroupRecord => ({
  id: r.id,
  directoryId: r.directory_id,
  displayName: r.display_name,
  externalId: r.external_id,
  members: r.members,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class PostgresDirectoryGroupRepository implements DirectoryGroupRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async find(directoryId: string, id: string): Promise<DirectoryGroupRecord | undefined> {
    if (!isUuid(directoryId) || !isUuid(id)) return undefined;
    const { rows: [row] } = await (await nativePool(this.#orm)).query<GroupRow>({
      name: 'directory_group_find',
      text: `select ${COLUMNS} from directory_groups where directory_id = $1 and id = $2`,
      values: [directoryId, id],
    });
    return row && rowToRecord(row);
  }

  async page(directoryId: string, filter: DirectoryGroupFilter | undefined, startIndex: number, count: number): Promise<{ total: number; groups: DirectoryGroupRecord[] }> {
    const condition = !filter ? '' : filter.attribute === 'displayName' ? ' and display_name = $2' : ' and external_id = $2';
    const values = [directoryId, ...(filter ? [filter.value] : [])];
    const pool = await nativePool(this.#orm);
    const { rows: [counted] } = await pool.query<{ total: number }>({
      name: `directory_groups_count_${filter?.attribute ?? 'all'}`,
      text: `select count(*)::int as total from directory_groups where directory_id = $1${condition}`,
      values,
    });
    const { rows } = await pool.query<GroupRow>({
      name: `directory_groups_page_${filter?.attribute ?? 'all'}`,
      text: `select ${COLUMNS} from directory_groups where directory_id = $1${condition} order by created_at, id limit $${values.length + 1} offset $${values.length + 2}`,
      values: [...values, count, startIndex - 1],
    });
    return { total: counted!.total, groups: rows.map(rowToRecord) };
  }

  async namesOfMember(directoryId: string, scimUserId: string): Promise<string[]> {
    if (!isUuid(directoryId) || !isUuid(scimUserId)) return [];
    const { rows } = await (await nativePool(this.#orm)).query<{ display_name: string }>({
      name: 'directory_groups_of_member',
      text: 'select display_name from directory_groups where directory_id = $1 and $2::uuid = any(members) order by display_name',
      values: [directoryId, scimUserId],
    });
    return rows.map((row) => row.display_name);
  }

  change<T>(
    directoryId: string,
    tenantId: string,
    id: string,
    meta: RequestMeta,
    decide: (before: DirectoryGroupRecord | undefined, now: Date) => DirectoryGroupChange<T>,
  ): Promise<{ result: T; handOffs: QueuedActorCommand[] }> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [row] } = await sql.query<GroupRow>({
        name: 'directory_group_locked',
        text: `select ${COLUMNS} from directory_groups where directory_id = $1 and id = $2 for update`,
        values: [directoryId, id],
      });
      const before = row && rowToRecord(row);
      const change = decide(before, new Date());
      if (change.remove && before) {
        await sql.query({ name: 'directory_group_delete', text: 'delete from directory_groups where directory_id = $1 and id = $2', values: [directoryId, id] });
      } else if (change.put) {
        const g = change.put;
        try {
          await sql.query({
            name: 'directory_group_put',
            text: `insert into directory_groups (directory_id, id, display_name, external_id, members, created_at, updated_at) values ($1, $2, $3, $4, $5::uuid[], $6, $7)
                   on conflict (directory_id, id) do update set display_name = excluded.display_name, external_id = excluded.external_id,
                     members = excluded.members, updated_at = excluded.updated_at`,
            values: [g.directoryId, g.id, g.displayName, g.externalId, g.members, g.createdAt, g.updatedAt],
          });
        } catch (error) {
          if ((error as { code?: string }).code === '23505') throw conflict(`another group of this directory has the displayName ${g.displayName}`);
          throw error;
        }
      } else {
        return { result: change.result, handOffs: [] };
      }
      if (change.event) await appendAuditEvent(sql, change.event, meta);
      await sql.query({ name: 'directory_synced', text: 'update directories set last_synced_at = $2 where id = $1', values: [directoryId, new Date()] });
      // Every user whose groups changed gets its roles again; a rename changes them all.
      const renamed = before && change.put && before.displayName !== change.put.displayName;
      const old = new Set(before?.members ?? []);
      const now = new Set(change.remove ? [] : (change.put?.members ?? []));
      const affected = renamed ? [...new Set([...old, ...now])] : [...new Set([...old, ...now])].filter((m) => old.has(m) !== now.has(m) || change.remove);
      const handOffs: QueuedActorCommand[] = [];
      for (const scimUserId of affected) handOffs.push(await enqueueActorCommand(sql, tenantId, { kind: 'syncDirectoryUser', directory_id: directoryId, scim_user_id: scimUserId }));
      return { result: change.result, handOffs };
    });
  }
}
