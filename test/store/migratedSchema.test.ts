import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyMigratedSchema } from '../../store/migratedSchema.ts';
import { migrate } from '../../store/orm.ts';
import { migrationsList } from '../../store/migrations/index.ts';
import { grantRuntimePrivileges, roleOf } from '../../store/runtimeRolePrivileges.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratchDatabase.ts';

/** A database of this file's own, taken from empty to migrated step by step; dropped at the end. */
let scratch: ScratchDatabase;
beforeAll(async () => {
  scratch = await createScratchDatabase('schema_check');
});
afterAll(() => scratch?.drop());

describe('verifyMigratedSchema (what the API and the worker check instead of migrating)', () => {
  it('refuses an empty database, then one whose runtime role was never granted, then accepts it granted and not its owner', async () => {
    await expect(verifyMigratedSchema(scratch.runtimeUrl)).rejects.toThrow('schema not migrated: run npm run migrate (the database has no schema)');
    await migrate(scratch.ownerUrl);
    await expect(verifyMigratedSchema(scratch.runtimeUrl)).rejects.toThrow("schema not migrated: run npm run migrate (DATABASE_URL's role has not been granted the schema)");
    await grantRuntimePrivileges(scratch.ownerUrl, roleOf(scratch.runtimeUrl));
    await expect(verifyMigratedSchema(scratch.runtimeUrl)).resolves.toEqual({ ownsSchema: false });
    await expect(verifyMigratedSchema(scratch.ownerUrl)).resolves.toEqual({ ownsSchema: true });
  });

  it('refuses a schema that lacks a migration this code knows, naming it', async () => {
    const owner = new pg.Client({ connectionString: scratch.ownerUrl });
    await owner.connect();
    const last = migrationsList[migrationsList.length - 1]!.name;
    try {
      await owner.query('delete from mikro_orm_migrations where name = $1', [last]);
    } finally {
      await owner.end();
    }
    await expect(verifyMigratedSchema(scratch.runtimeUrl)).rejects.toThrow(`schema not migrated: run npm run migrate (1 pending, the first ${last})`);
  });
});
