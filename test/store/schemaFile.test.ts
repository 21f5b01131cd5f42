import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { schemaOfMigrations } from '../../store/schemaOfMigrations.ts';

const committedFile = resolve(import.meta.dirname, '../../store/schema.sql');

describe('store/schema.sql', () => {
  it('is the schema the migrations make today, byte for byte', { timeout: 120_000 }, async () => {
    const made = await schemaOfMigrations(inject('databaseUrl'));
    const committed = await readFile(committedFile, 'utf8');
    expect(committed, 'store/schema.sql is not what the migrations make: run `npm run schema` and commit the file').toBe(made);
  });
});
