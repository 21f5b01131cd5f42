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
import { resolveRegistrySecretKeys } from './registrySecretKeys.ts';
import { SecretBox } from './secretBox.ts';

/**
 * The service's database as the runtime starts it: the schema migrated by the migration step (as its owner,
 * `migrationUrl`) or found migrated by the API and the worker, then a handle opened as the runtime role. Given by the
 * caller (store/orm.ts's `registryDatabase`): platform/ knows no schema.
 */
export interface ServiceDatabase<Handle extends { close(): Promise<void> }> {
  migrate(migrationUrl: string, runtimeUrl: string): Promise<{ separateRuntimeRole: boolean }>;
  /** Rejects while a migration is missing (the message says to run `npm run migrate`); answers whether the role owns the schema. */
  verifySchema(databaseUrl: string): Promise<{ ownsSchema: boolean }>;
  open(databaseUrl: string, poolMax: number): Promise<Handle>;
}

export interface ServiceRuntime<Handle extends { close(): Promise<void> }> {
  /** The database handle `ServiceDatabase.open` made, closed by `stop`. */
  orm: Handle;
  databaseUrl: string;
  temporalAddress: string;
  /** The address with the TLS and payload codec every client and worker of this process uses. */
  temporal: TemporalAccess;
  payloadKeys: PayloadKey[];
  /** REGISTRY_SECRET_KEYS (or the embedded defaults' development key) and the box that seals with them. */
  secretKeys: PayloadKey[];
  secretBox: SecretBox;
  devServer?: RunningDevServer;
  embeddedPostgres?: RunningPostgres;
  stop(): Promise<void>;
}

/**
 * The service's backing components: PostgreSQL (embedded unless DATABASE_URL) at the latest schema, and Temporal (a
 * local development server with its Web UI and persisted state unless TEMPORAL_ADDRESS).
 *
 * Only the migration step (`migrates`: `npm start`'s own process) holds the schema owner's URL and migrates; the API
 * and the worker refuse DATABASE_MIGRATION_URL and wait, logged, until the schema they need is there. A process that
 * starts the embedded PostgreSQL itself migrates it: the cluster, and its superuser, are its own.
 */
export async function startServiceRuntime<Handle extends { close(): Promise<void> }>(
  settings: Settings,
  log: Logger,
  serviceDatabase: ServiceDatabase<Handle>,
  options: { migrates?: boolean } = {},
): Promise<ServiceRuntime<Handle>> {
  if (!options.migrates && settings.DATABASE_MIGRATION_URL) {
    throw new Error(
      "DATABASE_MIGRATION_URL is set: the API and the worker must not hold the schema owner's connection. Give it to `npm run migrate` (or compose's migrate service) only (docs/security.md)",
    );
  }
  // Before anything starts: a deployment without its keys fails at once rather than after waiting for PostgreSQL.
  const secretKeys = await resolveRegistrySecretKeys(settings, log);
  const database = await resolveDatabase(settings, log);
  // Started while PostgreSQL is down (a deployment's database restarting) or not yet migrated: wait, logged.
  if (options.migrates || database.embedded) {
    await untilAvailable('PostgreSQL', () => serviceDatabase.migrate(database.migrationUrl, database.url), log);
  } else {
    const { ownsSchema } = await untilAvailable('PostgreSQL', () => serviceDatabase.verifySchema(database.url), log);
    if (ownsSchema) {
      log.warn(
        'the service runs as a role that owns the schema: it could alter the append-only audit log. Run it as a runtime role (DATABASE_URL) and migrate as the owner (DATABASE_MIGRATION_URL of npm run migrate; docs/security.md)',
      );
    }
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
    secretKeys,
    secretBox: new SecretBox(secretKeys),
    databaseUrl: database.url,
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
