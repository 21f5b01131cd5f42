import type { RetainedRows } from '../domain/retention/retainedRows.ts';
import type { RetainedRowsStore } from '../domain/retention/retainedRowsStore.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';

/**
 * Each kind's removal, in batches of `limit` rows taken oldest first through its index (Migration20261208000038RetentionIndexes),
 * `skip locked`: a row a change holds now is left for the next batch.
 */
export class PostgresRetainedRows implements RetainedRowsStore {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  removeEnded(rows: RetainedRows, endedBefore: Date, limit: number): Promise<number> {
    if (rows === 'portal_links') return this.#removePortalLinks(endedBefore, limit);
    if (rows === 'actor_outbox') return this.#removeDeliveredHandOffs(endedBefore, limit);
    return this.#clearReplacedDirectoryTokens(endedBefore, limit);
  }

  /** A link ends when it is opened, or else when it expires (a link opens only before it expires); its sessions go with it. */
  #removePortalLinks(endedBefore: Date, limit: number): Promise<number> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows } = await sql.query<{ id: string }>({
        name: 'retention_portal_links_ended',
        text: `select id from portal_links where coalesce(used_at, expires_at) < $1
                order by coalesce(used_at, expires_at) limit $2 for update skip locked`,
        values: [endedBefore, limit],
      });
      if (rows.length === 0) return 0;
      const ids = rows.map((row) => row.id);
      await sql.query({ name: 'retention_portal_sessions_delete', text: 'delete from portal_sessions where link_id = any($1::uuid[])', values: [ids] });
      await sql.query({ name: 'retention_portal_links_delete', text: 'delete from portal_links where id = any($1::uuid[])', values: [ids] });
      return ids.length;
    });
  }

  /** Delivered hand-offs only: one not delivered yet, or dead-lettered, has no delivered_at and is never taken. */
  async #removeDeliveredHandOffs(endedBefore: Date, limit: number): Promise<number> {
    const { rows } = await (await nativePool(this.#orm)).query<{ id: string }>({
      name: 'retention_outbox_delete',
      text: `delete from tenant_actor_outbox where id in (
               select id from tenant_actor_outbox where delivered_at < $1 order by delivered_at limit $2 for update skip locked)
             returning id`,
      values: [endedBefore, limit],
    });
    return rows.length;
  }

  /** The hash of the token a rotation replaced, once its grace is over: the directory itself stays. */
  async #clearReplacedDirectoryTokens(endedBefore: Date, limit: number): Promise<number> {
    const { rows } = await (await nativePool(this.#orm)).query<{ id: string }>({
      name: 'retention_directory_tokens_clear',
      text: `update directories set previous_token_hash = null, previous_token_expires_at = null
              where id in (select id from directories where previous_token_expires_at < $1
                            order by previous_token_expires_at limit $2 for update skip locked)
             returning id`,
      values: [endedBefore, limit],
    });
    return rows.length;
  }
}
