import type { Settings } from './config.ts';
import type { Logger } from './logger.ts';
import type { RunningPostgres } from './embeddedPostgres.ts';

export const EMBEDDED_DATABASE_NAME = 'tenant_registry';
/** The embedded cluster's runtime role: the service runs as it, the superuser only migrates. */
export const EMBEDDED_RUNTIME_ROLE = 'tenant_registry_app';

export interface ResolvedDatabase {
  /** What the service runs on. */
  url: string;
  /** What migrates the schema (and owns it). */
  migrationUrl: string;
  embedded?: RunningPostgres;
}

/** DATABASE_URL (and DATABASE_MIGRATION_URL) when set; otherwise an embedded PostgreSQL in DATA_DIR with both roles. */
export async function resolveDatabase(settings: Settings, log: Logger): Promise<ResolvedDatabase> {
  if (settings.DATABASE_URL) return { url: settings.DATABASE_URL, migrationUrl: settings.DATABASE_MIGRATION_URL ?? settings.DATABASE_URL };
  log.info({ dataDir: settings.DATA_DIR, port: settings.EMBEDDED_PG_PORT }, 'starting embedded PostgreSQL');
  const { startEmbeddedPostgres } = await embeddedPostgresModule();
  const embedded = await startEmbeddedPostgres(settings.DATA_DIR, settings.EMBEDDED_PG_PORT, log);
  await embedded.createDatabase(EMBEDDED_DATABASE_NAME);
  await embedded.ensureLoginRole(EMBEDDED_RUNTIME_ROLE);
  return { url: embedded.url(EMBEDDED_DATABASE_NAME, EMBEDDED_RUNTIME_ROLE), migrationUrl: embedded.url(EMBEDDED_DATABASE_NAME), embedded };
}

/**
 * The embedded PostgreSQL, loaded only when it runs: a production install (`npm ci --omit=dev`, the image) has no
 * binaries of it, and needs DATABASE_URL instead.
 */
async function embeddedPostgresModule(): Promise<typeof import('./embeddedPostgres.ts')> {
  try {
    return await import('./embeddedPostgres.ts');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(
      'DATABASE_URL is empty, and this install has no embedded PostgreSQL (a production install, `npm ci --omit=dev`): set DATABASE_URL to your PostgreSQL',
      { cause: error },
    );
  }
}
