import type { DirectoryCounts, DirectoryRecord, DirectoryState } from '../domain/directories/directoryRecord.ts';
import type { DirectoryChange, DirectoryRepository } from '../domain/directories/directoryRepository.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import { isUuid } from './uuidShape.ts';

const COLUMNS = `d.id, d.tenant_id, d.state, d.group_roles, d.token_hash, d.previous_token_hash, d.previous_token_expires_at,
  d.last_synced_at, d.created_at, d.updated_at`;
const COUNTS = `(select count(*) from directory_users u where u.directory_id = d.id)::int as users,
  (select count(*) from directory_groups g where g.directory_id = d.id)::int as groups`;

interface DirectoryRow {
  id: string;
  tenant_id: string;
  state: DirectoryState;
  group_roles: Record<string, string[]>;
  token_hash: Buffer;
  previous_token_hash: Buffer | null;
  previous_token_expires_at: Date | string | null;
  last_synced_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  users?: number;
  groups?: number;
}

const orNull = (value: Date | string | null) => (value === null ? null : new Date(value));

const rowToRecord = (r: DirectoryRow): DirectoryRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  state: r.state,
  groupRoles: r.group_roles,
  tokenHash: r.token_hash,
  previousTokenHash: r.previous_token_hash,
  previousTokenExpiresAt: orNull(r.previous_token_expires_at),
  lastSyncedAt: orNull(r.last_synced_at),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const withCounts = (r: DirectoryRow): DirectoryRecord & DirectoryCounts => ({ ...rowToRecord(r), users: r.users ?? 0, groups: r.groups ?? 0 });

export class PostgresDirectoryRepository implements DirectoryRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async find(id: string): Promise<(DirectoryRecord & DirectoryCounts) | undefined> {
    if (!isUuid(id)) return undefined;
    const { rows: [row] } = await (await nativePool(this.#orm)).query<DirectoryRow>({
      name: 'directory_by_id',
      text: `select ${COLUMNS}, ${COUNTS} from directories d where d.id = $1`,
      values: [id],
    });
    return row && withCounts(row);
  }

  async ofTenant(tenantId: string): Promise<(DirectoryRecord & DirectoryCounts)[] | undefined> {
    if (!isUuid(tenantId)) return undefined;
    const pool = await nativePool(this.#orm);
    const { rows: [tenant] } = await pool.query<{ found: boolean }>({ name: 'directory_tenant_exists', text: 'select exists (select 1 from tenants where id = $1) as found', values: [tenantId] });
    if (!tenant!.found) return undefined;
    const { rows } = await pool.query<DirectoryRow>({
      name: 'directories_of_tenant',
      text: `select ${COLUMNS}, ${COUNTS} from directories d where d.tenant_id = $1 order by d.created_at, d.id`,
      values: [tenantId],
    });
    return rows.map(withCounts);
  }

  change<T>(
    target: { by: 'id'; id: string } | { by: 'new'; tenantId: string },
    meta: RequestMeta,
    decide: (directory: DirectoryRecord | undefined, now: Date, ofTenant: number) => DirectoryChange<T>,
  ): Promise<{ result: T } | undefined> {
    if (target.by === 'id' ? !isUuid(target.id) : !isUuid(target.tenantId)) return Promise.resolve(undefined);
    return nativeTransaction(this.#orm, async (sql) => {
      let before: DirectoryRecord | undefined;
      let tenantId: string;
      if (target.by === 'id') {
        const { rows: [row] } = await sql.query<DirectoryRow>({ name: 'directory_locked', text: `select ${COLUMNS} from directories d where d.id = $1 for update`, values: [target.id] });
        if (!row) return undefined;
        before = rowToRecord(row);
        tenantId = before.tenantId;
      } else {
        // The tenant's row locked: two new directories of one tenant are counted one after the other.
        const { rows: [tenant] } = await sql.query<{ id: string }>({ name: 'directory_tenant_locked', text: 'select id from tenants where id = $1 for no key update', values: [target.tenantId] });
        if (!tenant) return undefined;
        tenantId = target.tenantId;
      }
      const { rows: [counted] } = await sql.query<{ n: number }>({ name: 'directories_of_tenant_counted', text: 'select count(*)::int as n from directories where tenant_id = $1', values: [tenantId] });
      const change = decide(before, new Date(), counted!.n);
      if (change.remove && before) {
        await sql.query({ name: 'directory_delete', text: 'delete from directories where id = $1', values: [before.id] });
      } else if (change.put) {
        const d = change.put;
        await sql.query({
          name: 'directory_put',
          text: `insert into directories (id, tenant_id, state, group_roles, token_hash, previous_token_hash, previous_token_expires_at, last_synced_at, created_at, updated_at)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                 on conflict (id) do update set state = excluded.state, group_roles = excluded.group_roles, token_hash = excluded.token_hash,
                   previous_token_hash = excluded.previous_token_hash, previous_token_expires_at = excluded.previous_token_expires_at,
                   last_synced_at = excluded.last_synced_at, updated_at = excluded.updated_at`,
          values: [d.id, d.tenantId, d.state, JSON.stringify(d.groupRoles), d.tokenHash, d.previousTokenHash, d.previousTokenExpiresAt, d.lastSyncedAt, d.createdAt, d.updatedAt],
        });
      }
      if (change.event) await appendAuditEvent(sql, change.event, meta);
      return { result: change.result };
    });
  }
}
