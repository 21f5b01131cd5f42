import { loadSettings } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { resolveDatabase } from '../platform/database.ts';
import { migrate, openOrm } from '../store/orm.ts';
import { createApp } from './app.ts';
import { listen } from './httpServer.ts';
import { runChecks, storeCheck } from './readinessChecks.ts';

/** The API process: database (embedded unless DATABASE_URL), migrations, HTTP; drains in-flight requests on SIGTERM. */
export async function main(): Promise<void> {
  const settings = loadSettings();
  const log = createLogger(settings.LOG_LEVEL, 'tenant-registry');
  const database = await resolveDatabase(settings, log);
  const orm = await openOrm(database.url, settings.DATABASE_POOL_MAX);
  await migrate(orm);
  const { app } = createApp({
    settings,
    orm,
    log,
    readiness: () => runChecks({ store: storeCheck(orm) }, 2000),
  });
  const http = await listen(app, settings.PORT, settings.HOST);
  log.info({ port: http.port }, 'tenant registry listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: draining in-flight requests');
    await http.close(settings.SHUTDOWN_GRACE_MS);
    await orm.close();
    await database.embedded?.stop();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
