import type { Orm } from './orm.ts';

/** One round trip to PostgreSQL: readiness's proof that the store answers. */
export async function pingStore(orm: Orm): Promise<void> {
  await orm.em.fork().execute('select 1');
}
