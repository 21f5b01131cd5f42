import { loadSettings } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { shutdownOnSignals } from '../platform/shutdownOnSignals.ts';
import { startServiceRuntime } from '../platform/serviceRuntime.ts';
import { identityProviderFromSettings } from '../activities/idp/identityProviderFromSettings.ts';
import { loadAuthConfig } from './auth/authConfig.ts';
import { startApi } from './startApi.ts';

/**
 * The API alone (`npm run api`), for deployments that run workers separately: DATABASE_URL and TEMPORAL_ADDRESS
 * should then point at shared services.
 */
const settings = loadSettings();
const authConfig = loadAuthConfig(process.env);
const log = createLogger(settings.LOG_LEVEL, 'tenant-registry-api');
const runtime = await startServiceRuntime(settings, log);
const { idp } = identityProviderFromSettings(process.env, runtime.orm, settings.PUBLIC_BASE_URL ?? `http://127.0.0.1:${settings.PORT}`);
const api = await startApi({ settings, authConfig, log, orm: runtime.orm, temporalAddress: runtime.temporalAddress, idp });
shutdownOnSignals(log, [() => api.stop(), () => runtime.stop()]);
