import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Sql } from './sql.ts';
import type { Orm } from './orm.ts';

const pools = new WeakMap<Orm, Promise<Sql>>();

/** The `pg` pool under the ORM (one pool, one DATABASE_POOL_MAX), for the hot paths' plain statements. */
export function nativePool(orm: Orm): Promise<Sql> {
  let pool = pools.get(orm);
  if (!pool) {
    pool = (orm.em.getConnection() as unknown as PostgreSqlConnection).getNativeClient() as Promise<Sql>;
    pools.set(orm, pool);
  }
  return pool;
}
