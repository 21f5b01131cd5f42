import { loadSettings } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { shutdownOnSignals } from '../platform/shutdownOnSignals.ts';
import { startServiceRuntime } from '../platform/serviceRuntime.ts';
import { registryDatabase } from '../store/orm.ts';
import { startServiceProcess } from '../platform/serviceProcess.ts';
import { formatPayloadKeys } from '../platform/temporal/payloadKeys.ts';
import { loadKeycloakSettings } from '../identityProvider/keycloakSettings.ts';
import { loadAuthConfig } from '../api/auth/authConfig.ts';

/**
 * `npm start`: the whole service on its embedded defaults — PostgreSQL and a Temporal development server (with Web UI)
 * unless DATABASE_URL / TEMPORAL_ADDRESS are set, the simulated identity provider unless IDP_ADMIN_URL is set — run
 * as a deployment runs it: this process starts the backing services and is the migration step (as the schema's owner:
 * the embedded superuser, or DATABASE_MIGRATION_URL), then runs the worker (`worker/main.ts`) and the API
 * (`api/main.ts`) as two processes of their own pointed at them, as the runtime role, never handed the owner's URL.
 * The API's memory and CPU are then its own, as they are in production (docs/decisions.md).
 */
const settings = loadSettings();
// Settings the children need are checked here too, so a mistake is reported once, before anything starts.
loadKeycloakSettings(process.env);
loadAuthConfig(process.env);
const log = createLogger(settings.LOG_LEVEL, 'tenant-registry');
const runtime = await startServiceRuntime(settings, log, registryDatabase, { migrates: true });
// The children run as the runtime role: the owner's URL stays in this process (docs/security.md).
const runtimeEnv = { ...process.env };
delete runtimeEnv.DATABASE_MIGRATION_URL;
const env = {
  ...runtimeEnv,
  DATABASE_URL: runtime.databaseUrl,
  TEMPORAL_ADDRESS: runtime.temporalAddress,
  TEMPORAL_PAYLOAD_KEYS: formatPayloadKeys(runtime.payloadKeys),
  REGISTRY_SECRET_KEYS: formatPayloadKeys(runtime.secretKeys),
};
const processes = [startServiceProcess('worker', 'worker/main.ts', env, log), startServiceProcess('api', 'api/main.ts', env, log)];

let stopping = false;
const stopProcesses = async () => {
  stopping = true;
  // The API first: it drains its requests while the worker can still finish what they handed off.
  for (const child of [...processes].reverse()) await child.stop(settings.SHUTDOWN_GRACE_MS + 5_000);
};
shutdownOnSignals(log, [stopProcesses, () => runtime.stop()]);

// One of the two ending by itself is a failure of the whole: stop everything and exit non-zero for the supervisor.
const first = await Promise.race(processes.map(async (child) => ({ child, code: await child.exited })));
if (!stopping) {
  log.error({ process: first.child.name, code: first.code }, 'service process exited; stopping');
  await stopProcesses();
  await runtime.stop();
  process.exit(1);
}
