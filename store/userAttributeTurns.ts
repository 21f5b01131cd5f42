import { setTimeout as sleep } from 'node:timers/promises';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';

/** How long a push waits for its turn before it fails (its step retries it). */
const TURN_PATIENCE_MS = 30_000;
/** Pause between tries for the turn, jittered so waiting pushes do not retry in step. */
const TURN_RETRY_MS = 50;

/**
 * Runs `work` while holding the turn of one identity-provider user's attributes: a transaction-scoped advisory lock
 * on the user id, so the pushes of different tenants' actors into one user (a read, a merge, a whole-user write in
 * Keycloak, which has no conditional update) take turns instead of overwriting each other. The lock goes with the
 * transaction, also when the process dies mid-push. A push waiting for its turn holds no connection of the pool (it
 * tries, and tries again after a pause): waiters blocked on the lock could otherwise take every connection.
 */
export async function withUserAttributeTurn<T>(orm: Orm, userId: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + TURN_PATIENCE_MS;
  for (;;) {
    const outcome = await nativeTransaction(orm, async (sql) => {
      const { rows } = await sql.query<{ held: boolean }>({
        name: 'user_attribute_turn',
        text: `select pg_try_advisory_xact_lock(hashtextextended('user-attributes:' || $1, 0)) as held`,
        values: [userId],
      });
      return rows[0]?.held ? { value: await work() } : undefined;
    });
    if (outcome) return outcome.value;
    if (Date.now() >= deadline) throw new Error(`no turn at user ${userId}'s attributes within ${TURN_PATIENCE_MS} ms`);
    await sleep(TURN_RETRY_MS + Math.random() * TURN_RETRY_MS);
  }
}
