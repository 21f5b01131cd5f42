import { randomUUID } from 'node:crypto';
import type { RegistryCache } from '../../domain/reads/registryCache.ts';
import { CHANGE_CHANNEL } from '../../store/changeListener.ts';
import type { Orm } from '../../store/orm.ts';
import { eventually } from './eventually.ts';

/**
 * Returns once every change notification committed before the call has reached `cache`: a barrier notification of its
 * own is sent and waited for, and PostgreSQL delivers notifications in commit order. A copy cached after it is not
 * forgotten by a notification of an earlier change arriving late.
 */
export async function notificationsSettled(orm: Orm, cache: RegistryCache): Promise<void> {
  const barrier = `trk_barrier_${randomUUID()}`;
  cache.apiKeys.putMissing(barrier, cache.generation());
  if (!cache.apiKeys.knownMissing(barrier)) throw new Error('the cache is not live: it holds nothing a barrier could clear');
  await orm.em.fork().execute(`select pg_notify('${CHANGE_CHANNEL}', ?)`, [`k:${barrier}`]);
  await eventually(async () => !cache.apiKeys.knownMissing(barrier), 5_000, 'the notifications before the barrier');
}
