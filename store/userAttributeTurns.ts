import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';

/** Long enough for a push behind a few others; a turn not had by then fails the push, which its step retries. */
const TURN_WAIT = '30s';

/**
 * Runs `work` while holding the turn of one identity-provider user's attributes: a transaction-scoped advisory lock
 * on the user id, so the pushes of different tenants' actors into one user (a read, a merge, a whole-user write in
 * Keycloak, which has no conditional update) take turns instead of overwriting each other. The lock goes with the
 * transaction, also when the process dies mid-push.
 */
export function withUserAttributeTurn<T>(orm: Orm, userId: string, work: () => Promise<T>): Promise<T> {
  return nativeTransaction(
    orm,
    async (sql) => {
      await sql.query({
        name: 'user_attribute_turn',
        text: `select pg_advisory_xact_lock(hashtextextended('user-attributes:' || $1, 0))`,
        values: [userId],
      });
      return work();
    },
    `begin; set local lock_timeout = '${TURN_WAIT}'`,
  );
}
