import pg from 'pg';
import { migrate } from './orm.ts';
import { dumpSchema } from './schemaDump.ts';

/**
 * The schema today's migrations make, as dumpSchema writes it: a database of its own is made on the cluster that
 * `superuserUrl` reaches, migrated from empty, dumped and dropped again. What `npm run schema` writes into
 * store/schema.sql and what test/store/schemaFile.test.ts compares that file with.
 */
export async function schemaOfMigrations(superuserUrl: string): Promise<string> {
  const name = `schema_dump_${process.pid}_${Date.now()}`;
  const scratchUrl = Object.assign(new URL(superuserUrl), { pathname: `/${name}` }).toString();
  const admin = new pg.Client({ connectionString: superuserUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    try {
      await migrate(scratchUrl);
      const scratch = new pg.Client({ connectionString: scratchUrl });
      await scratch.connect();
      try {
        return await dumpSchema(scratch);
      } finally {
        await scratch.end();
      }
    } finally {
      await admin.query(`drop database ${name} with (force)`);
    }
  } finally {
    await admin.end();
  }
}
