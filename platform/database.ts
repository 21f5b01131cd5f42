import type { Settings } from './config.ts';
import type { Logger } from './logger.ts';
import { startEmbeddedPostgres, type RunningPostgres } from './embeddedPostgres.ts';

export const EMBEDDED_DATABASE_NAME = 'tenant_registry';

/** DATABASE_URL when set; otherwise an embedded PostgreSQL in DATA_DIR. */
export async function resolveDatabase(settings: Settings, log: Logger): Promise<{ url: string; embedded?: RunningPostgres }> {
  if (settings.DATABASE_URL) return { url: settings.DATABASE_URL };
  log.info({ dataDir: settings.DATA_DIR, port: settings.EMBEDDED_PG_PORT }, 'starting embedded PostgreSQL');
  const embedded = await startEmbeddedPostgres(settings.DATA_DIR, settings.EMBEDDED_PG_PORT, log);
  await embedded.createDatabase(EMBEDDED_DATABASE_NAME);
  return { url: embedded.url(EMBEDDED_DATABASE_NAME), embedded };
}
