import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { startEmbeddedPostgres } from '../platform/embeddedPostgres.ts';
import { freePort } from '../platform/freePort.ts';
import { createLogger } from '../platform/logger.ts';
import { schemaOfMigrations } from '../store/schemaOfMigrations.ts';

/**
 * `npm run schema`: writes store/schema.sql, the schema the migrations make, from a fresh database of the embedded
 * PostgreSQL (the pinned server, so the file's bytes do not depend on the machine's). Run it after changing a
 * migration and commit the file with it; test/store/schemaFile.test.ts fails until then.
 */
const root = resolve(import.meta.dirname, '..');
const log = createLogger(process.env.LOG_LEVEL ?? 'info', 'tenant-registry-dump-schema');
const postgres = await startEmbeddedPostgres(resolve(root, '.data/schema-dump'), await freePort(), log, 'postgres-schema-dump');
try {
  const target = resolve(root, 'store/schema.sql');
  await writeFile(target, await schemaOfMigrations(postgres.url('postgres')));
  log.info({ file: 'store/schema.sql' }, 'schema written');
} finally {
  await postgres.stop();
}
