// First: re-executes with the service's V8 heap flags before anything else is loaded (see the module).
import '../platform/serviceV8Flags.ts';
import { loadSettings } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { shutdownOnSignals } from '../platform/shutdownOnSignals.ts';
import { startServiceRuntime } from '../platform/serviceRuntime.ts';
import { identityProviderFor } from '../activities/idp/identityProviderFor.ts';
import { loadKeycloakSettings } from '../activities/idp/keycloakSettings.ts';
import { loadAuthConfig } from '../api/auth/authConfig.ts';
import { startApi } from '../api/startApi.ts';
import { startWorker } from '../worker/startWorker.ts';

/**
 * `npm start`: the whole service in one process on its embedded defaults — PostgreSQL and a Temporal development
 * server (with Web UI) unless DATABASE_URL / TEMPORAL_ADDRESS are set, the simulated identity provider unless
 * IDP_ADMIN_URL is set, the worker and the API.
 */
const settings = loadSettings();
const keycloakSettings = loadKeycloakSettings(process.env);
const authConfig = loadAuthConfig(process.env);
const log = createLogger(settings.LOG_LEVEL, 'tenant-registry');
const runtime = await startServiceRuntime(settings, log);
const { idp, kind } = identityProviderFor(keycloakSettings, runtime.orm, settings.PUBLIC_BASE_URL ?? `http://127.0.0.1:${settings.PORT}`);
log.info({ identityProvider: kind }, 'identity provider selected');
const worker = await startWorker({ settings, log, orm: runtime.orm, temporalAddress: runtime.temporalAddress, idp });
const api = await startApi({ settings, authConfig, log, orm: runtime.orm, temporalAddress: runtime.temporalAddress, idp });
shutdownOnSignals(log, [() => api.stop(), () => worker.stop(), () => runtime.stop()]);
