import pg from 'pg';
import { inject } from 'vitest';

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
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    },
  };
}
