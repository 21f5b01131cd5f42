import pg from 'pg';
import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities/index.ts';
import { migrationsList } from './migrations/index.ts';
import { grantRuntimePrivileges, roleOf } from './runtimeRolePrivileges.ts';
import { verifyMigratedSchema } from './migratedSchema.ts';
import type { ServiceDatabase } from '../platform/serviceRuntime.ts';

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
 * Runs pending migrations as the schema's owner under a PostgreSQL advisory lock, so two migration steps started
 * together against one database (`npm run migrate`, `npm start`) run one after the other instead of racing; then
 * grants the runtime role (the role of `runtimeUrl`, when it is another) what it may do. Answers whether the runtime
 * is a role of its own.
 */
export async function migrate(migrationUrl: string, runtimeUrl: string = migrationUrl): Promise<{ separateRuntimeRole: boolean }> {
  const lock = new pg.Client({ connectionString: migrationUrl });
  await lock.connect();
  const orm = await openOrm(migrationUrl, 1);
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await orm.migrator.up();
    const separateRuntimeRole = roleOf(runtimeUrl) !== roleOf(migrationUrl);
    if (separateRuntimeRole) await grantRuntimePrivileges(migrationUrl, roleOf(runtimeUrl));
    return { separateRuntimeRole };
  } finally {
    await orm.close();
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    await lock.end();
  }
}

/**
 * The registry's database as platform/serviceRuntime.ts starts it: migrated by `migrate` (the migration step), found
 * migrated by `verifyMigratedSchema` (the API and the worker), opened by `openOrm`.
 */
export const registryDatabase: ServiceDatabase<Orm> = { migrate, verifySchema: verifyMigratedSchema, open: openOrm };
