import { loadSettings } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { shutdownOnSignals } from '../platform/shutdownOnSignals.ts';
import { startServiceRuntime } from '../platform/serviceRuntime.ts';
import { registryDatabase } from '../store/orm.ts';
import { identityProviderFor } from '../identityProvider/identityProviderFor.ts';
import { loadKeycloakSettings } from '../identityProvider/keycloakSettings.ts';
import { loadAuthConfig } from './auth/authConfig.ts';
import { startApi } from './startApi.ts';
import { startStartupProbe } from './startupProbe.ts';
import { startTracing } from '../platform/tracing/tracing.ts';
import { flushCompileCache } from 'node:module';

/**
 * The API alone (`npm run api`), for deployments that run workers separately: DATABASE_URL and TEMPORAL_ADDRESS
 * should then point at shared services.
 */
const settings = loadSettings();
const keycloakSettings = loadKeycloakSettings(process.env);
const authConfig = loadAuthConfig(process.env);
const log = createLogger(settings.LOG_LEVEL, 'tenant-registry-api');
// The port answers (503, /readyz naming what is missing) while the runtime waits for PostgreSQL.
const probe = settings.DATABASE_URL ? await startStartupProbe(settings.PORT, settings.HOST, log) : undefined;
const runtime = await startServiceRuntime(settings, log, registryDatabase);
await probe?.close();
const { idp } = await identityProviderFor(keycloakSettings, runtime.orm, settings.PUBLIC_BASE_URL ?? `http://127.0.0.1:${settings.PORT}`);
const tracing = await startTracing(settings, 'api');
const api = await startApi({ settings, authConfig, log, orm: runtime.orm, temporal: { ...runtime.temporal, tracing }, idp, secretBox: runtime.secretBox });
shutdownOnSignals(log, [() => api.stop(), async () => tracing?.shutdown(), () => runtime.stop()]);
// Started: the next start (a restart, another replica on this host) loads every module from the compile cache, even
// if this process is killed rather than stopped (platform/serviceProcessSettings.ts).
flushCompileCache();
