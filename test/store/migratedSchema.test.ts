import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifyMigratedSchema } from '../../store/migratedSchema.ts';
import { migrate } from '../../store/orm.ts';
import { migrationsList } from '../../store/migrations/index.ts';
import { grantRuntimePrivileges, roleOf } from '../../store/runtimeRolePrivileges.ts';

/** A database of this file's own, taken from empty to migrated step by step; dropped at the end. */
const name = `schema_check_${process.pid}_${Date.now()}`;
const onScratch = (url: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();
const ownerUrl = onScratch(inject('databaseUrl'));
const runtimeUrl = onScratch(inject('runtimeDatabaseUrl'));
let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  await admin.query(`create database ${name}`);
});
afterAll(async () => {
  await admin.query(`drop database ${name} with (force)`);
  await admin.end();
});

describe('verifyMigratedSchema (what the API and the worker check instead of migrating)', () => {
  it('refuses an empty database, then one whose runtime role was never granted, then accepts it granted and not its owner', async () => {
    await expect(verifyMigratedSchema(runtimeUrl)).rejects.toThrow('schema not migrated: run npm run migrate (the database has no schema)');
    await migrate(ownerUrl);
    await expect(verifyMigratedSchema(runtimeUrl)).rejects.toThrow("schema not migrated: run npm run migrate (DATABASE_URL's role has not been granted the schema)");
    await grantRuntimePrivileges(ownerUrl, roleOf(runtimeUrl));
    await expect(verifyMigratedSchema(runtimeUrl)).resolves.toEqual({ ownsSchema: false });
    await expect(verifyMigratedSchema(ownerUrl)).resolves.toEqual({ ownsSchema: true });
  });

  it('refuses a schema that lacks a migration this code knows, naming it', async () => {
    const owner = new pg.Client({ connectionString: ownerUrl });
    await owner.connect();
    const last = migrationsList[migrationsList.length - 1]!.name;
    try {
      await owner.query('delete from mikro_orm_migrations where name = $1', [last]);
    } finally {
      await owner.end();
    }
    await expect(verifyMigratedSchema(runtimeUrl)).rejects.toThrow(`schema not migrated: run npm run migrate (1 pending, the first ${last})`);
  });
});
