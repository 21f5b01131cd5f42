import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from '../domain/entities/index.ts';
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

export async function migrate(orm: Orm): Promise<void> {
  await orm.migrator.up();
}
