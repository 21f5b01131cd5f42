import type { Settings } from './config.ts';
import type { Logger } from './logger.ts';
import { resolveDatabase } from './database.ts';
import { startTemporalDevServer, type RunningDevServer } from './temporalDevServer.ts';
import { untilAvailable } from './untilAvailable.ts';
import type { RunningPostgres } from './embeddedPostgres.ts';
import type { TemporalAccess } from './temporal/temporalAccess.ts';
import { PayloadEncryptionCodec, type PayloadKey } from './temporal/payloadEncryptionCodec.ts';
import { resolvePayloadKeys } from './temporal/payloadKeys.ts';
import { temporalTls } from './temporal/temporalTls.ts';

/**
 * The service's database as the runtime starts it: the schema migrated (as its owner, `migrationUrl`), then a handle
 * opened as the runtime role. Given by the caller (store/orm.ts's `registryDatabase`): platform/ knows no schema.
 */
export interface ServiceDatabase<Handle extends { close(): Promise<void> }> {
  migrate(migrationUrl: string, runtimeUrl: string): Promise<{ separateRuntimeRole: boolean }>;
  open(databaseUrl: string, poolMax: number): Promise<Handle>;
}

export interface ServiceRuntime<Handle extends { close(): Promise<void> }> {
  /** The database handle `ServiceDatabase.open` made, closed by `stop`. */
  orm: Handle;
  databaseUrl: string;
  migrationUrl: string;
  temporalAddress: string;
  /** The address with the TLS and payload codec every client and worker of this process uses. */
  temporal: TemporalAccess;
  payloadKeys: PayloadKey[];
  devServer?: RunningDevServer;
  embeddedPostgres?: RunningPostgres;
  stop(): Promise<void>;
}

/**
 * The service's backing components: PostgreSQL (embedded unless DATABASE_URL) migrated to the latest schema, and
 * Temporal (a local development server with its Web UI and persisted state unless TEMPORAL_ADDRESS).
 */
export async function startServiceRuntime<Handle extends { close(): Promise<void> }>(
  settings: Settings,
  log: Logger,
  serviceDatabase: ServiceDatabase<Handle>,
): Promise<ServiceRuntime<Handle>> {
  const database = await resolveDatabase(settings, log);
  // Started while PostgreSQL is down (a deployment's database restarting): wait for it, logged, instead of exiting.
  const { separateRuntimeRole } = await untilAvailable('PostgreSQL', () => serviceDatabase.migrate(database.migrationUrl, database.url), log);
  if (!separateRuntimeRole) {
    log.warn(
      'the service runs as the role that owns the schema: it could alter the append-only audit log. Set DATABASE_MIGRATION_URL to the owner and DATABASE_URL to a runtime role (docs/security.md)',
    );
  }
  const orm = await serviceDatabase.open(database.url, settings.DATABASE_POOL_MAX);
  let devServer: RunningDevServer | undefined;
  let temporalAddress = settings.TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    log.info({ port: settings.TEMPORAL_DEV_PORT, uiPort: settings.TEMPORAL_UI_PORT }, 'starting Temporal development server');
    devServer = await startTemporalDevServer(
      {
        port: settings.TEMPORAL_DEV_PORT,
        uiPort: settings.TEMPORAL_UI_PORT,
        uiCodecEndpoint: `http://127.0.0.1:${settings.PORT}/codec`,
        dataDir: `${settings.DATA_DIR}/temporal`,
        namespace: settings.TEMPORAL_NAMESPACE,
      },
      log,
    );
    temporalAddress = devServer.address;
    log.info({ address: devServer.address, webUi: devServer.uiUrl }, 'Temporal development server running');
  }
  const payloadKeys = await resolvePayloadKeys(settings, log);
  const temporal: TemporalAccess = { address: temporalAddress, tls: temporalTls(settings), payloadCodec: new PayloadEncryptionCodec(payloadKeys) };
  return {
    orm,
    temporal,
    payloadKeys,
    databaseUrl: database.url,
    migrationUrl: database.migrationUrl,
    temporalAddress,
    devServer,
    embeddedPostgres: database.embedded,
    // Every step runs even when one before it fails: a failed pool close must not leave Temporal running.
    async stop() {
      const failures: unknown[] = [];
      for (const step of [() => orm.close(), () => devServer?.stop(), () => database.embedded?.stop()]) {
        await Promise.resolve()
          .then(step)
          .catch((error: unknown) => failures.push(error));
      }
      if (failures.length > 0) throw new AggregateError(failures, 'stopping the backing services failed');
    },
  };
}
