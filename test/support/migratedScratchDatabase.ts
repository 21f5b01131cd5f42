import pg from 'pg';
import { openOrm } from '../../store/orm.ts';
import { createScratchDatabase, type ScratchDatabase } from './scratchDatabase.ts';

/** A scratch database migrated to the end, and a connected client of its owner: for a migration's test of the schema it leaves. */
export async function migratedScratchDatabase(stem: string): Promise<{ scratch: ScratchDatabase; owner: pg.Client }> {
  const scratch = await createScratchDatabase(stem);
  const orm = await openOrm(scratch.ownerUrl, 1);
  await orm.migrator.up();
  await orm.close();
  const owner = new pg.Client({ connectionString: scratch.ownerUrl });
  await owner.connect();
  return { scratch, owner };
}
