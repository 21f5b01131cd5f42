import type { Orm } from './orm.ts';
import type { Sql } from './sql.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';

/** SQLSTATE of a cancelled statement: by statement_timeout, or by a cancel request (told apart by the message). */
const QUERY_CANCELED = '57014';

/**
 * `work`'s statements on the pool under the ORM: as they come without a time limit; with one, in a transaction of
 * their own whose statements PostgreSQL stops after `timeoutMs` (SET LOCAL ends with the transaction: the connection
 * goes back to the pool as it was). A statement stopped by the limit rejects with what `timedOut` makes.
 */
export async function withStatementTimeout<T>(orm: Orm, timeoutMs: number | undefined, timedOut: (timeoutMs: number) => Error, work: (sql: Sql) => Promise<T>): Promise<T> {
  if (timeoutMs === undefined) return work(await nativePool(orm));
  try {
    // The limit is a number of ours, never a caller's text: it joins BEGIN in one round trip.
    return await nativeTransaction(orm, work, `begin; set local statement_timeout = ${Math.trunc(timeoutMs)}`);
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === QUERY_CANCELED && typeof message === 'string' && message.includes('statement timeout')) throw timedOut(timeoutMs);
    throw error;
  }
}
