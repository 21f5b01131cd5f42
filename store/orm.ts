import pg from 'pg';
import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities/index.ts';
import { migrationsList } from './migrations/index.ts';

export type Orm = MikroORM;

/** The ORM over an existing database; schema changes happen only through `migrate`, never by schema sync. */
export async function openOrm(databaseUrl: string, poolMax: number): Promise<Orm> {
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    debug: false,
  });
}

/** Arbitrary constant naming this service's migration lock. */
const MIGRATION_LOCK_KEY = 7_202_611_210;

/**
 * Runs pending migrations under a PostgreSQL advisory lock, so API and worker processes starting together against
 * one database migrate one after the other instead of racing.
 */
export async function migrate(orm: Orm, databaseUrl: string): Promise<void> {
  const lock = new pg.Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await orm.migrator.up();
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    await lock.end();
  }
}
