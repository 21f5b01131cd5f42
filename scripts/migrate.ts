import { loadSettings } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { resolveDatabase } from '../platform/database.ts';
import { migrate } from '../store/orm.ts';

/**
 * `npm run migrate`: the migration step, the one process that holds the schema owner's URL. It brings the schema to
 * the latest migration as the owner (DATABASE_MIGRATION_URL, else DATABASE_URL) and grants DATABASE_URL's role what
 * the service uses, then exits; the API and the worker, run as that role, wait until it has. Without DATABASE_URL it
 * migrates the embedded PostgreSQL in DATA_DIR (which `npm start` also does by itself). Fails with a non-zero exit,
 * never retries: a deployment's job runner or compose's restart policy decides about another attempt.
 */
const settings = loadSettings();
const log = createLogger(settings.LOG_LEVEL, 'tenant-registry-migrate');
const database = await resolveDatabase(settings, log);
try {
  const { separateRuntimeRole } = await migrate(database.migrationUrl, database.url);
  if (!separateRuntimeRole) {
    log.warn('DATABASE_URL is the schema owner: the service would run as the role that owns the audit log. Set DATABASE_MIGRATION_URL to the owner and DATABASE_URL to a runtime role (docs/security.md)');
  }
  log.info({ runtimeRoleGranted: separateRuntimeRole }, 'schema migrated');
} finally {
  await database.embedded?.stop();
}
