import type pg from 'pg';
import { nativePool } from './nativePool.ts';
import type { Orm } from './orm.ts';
import type { Sql } from './sql.ts';

/**
 * `work` in one transaction on one connection of the pool under the ORM, with plain (mostly named) statements: the
 * ORM's transaction, entity loading and unit of work were most of the API's CPU a tenant change (issue #19), for
 * statements that are fixed but for their values. Committed when `work` resolves, rolled back when it throws; a
 * connection that failed mid-transaction is closed rather than handed back. `begin` may carry the transaction's own
 * settings in the same round trip (`begin; set local …`).
 */
export async function nativeTransaction<T>(orm: Orm, work: (sql: Sql) => Promise<T>, begin = 'begin'): Promise<T> {
  const pool = (await nativePool(orm)) as unknown as pg.Pool;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await work(client as Sql);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch((rollbackFailed: Error) => {
      broken = rollbackFailed;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
