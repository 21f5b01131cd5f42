import pg from 'pg';
import { inject } from 'vitest';
import { eventually } from './eventually.ts';

/**
 * A database of a test file's own on the run's PostgreSQL server, empty until the file migrates it (a migration's own
 * test, from the schema before it): the run's connection URLs, owner's and runtime role's, pointed at it.
 */
export interface ScratchDatabase {
  ownerUrl: string;
  runtimeUrl: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(stem: string): Promise<ScratchDatabase> {
  const name = `${stem}_${process.pid}_${Date.now()}`;
  const onScratch = (url: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  await admin.query(`create database ${name}`);
  return {
    ownerUrl: onScratch(inject('databaseUrl')),
    runtimeUrl: onScratch(inject('runtimeDatabaseUrl')),
    async drop() {
      // A pool's end() resolves before its sockets close: forcing the drop first would send a closing client a FATAL
      // it reports as an uncaught error, so the drop waits for the file's own connections to leave.
      await eventually(async () => (await admin.query('select 1 from pg_stat_activity where datname = $1', [name])).rowCount === 0, 5_000, `${name} left`).catch(() => undefined);
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    },
  };
}
