import { loadSettings } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { shutdownOnSignals } from '../platform/shutdownOnSignals.ts';
import { startServiceRuntime } from '../platform/serviceRuntime.ts';
import { registryDatabase } from '../store/orm.ts';
import { identityProviderFor } from '../identityProvider/identityProviderFor.ts';
import { loadKeycloakSettings } from '../identityProvider/keycloakSettings.ts';
import { startWorker } from './startWorker.ts';
import { startWorkerMetrics } from './workerMetricsEndpoint.ts';
import { WorkerReadiness } from './workerReadiness.ts';
import { temporalCertificateExpiries } from '../platform/temporal/temporalCertificateExpiries.ts';
import { startTracing } from '../platform/tracing/tracing.ts';
import { flushCompileCache } from 'node:module';

/** The worker alone (`npm run worker`): the tenant actors' workflows and activities. */
const settings = loadSettings();
const keycloakSettings = loadKeycloakSettings(process.env);
const log = createLogger(settings.LOG_LEVEL, 'tenant-registry-worker');
// The health listener first: /healthz answers (and /readyz says not ready) while the runtime waits for PostgreSQL.
const readiness = new WorkerReadiness(settings.READINESS_CACHE_MS, log);
const observed =
  settings.WORKER_METRICS_PORT > 0
    ? await startWorkerMetrics(settings.WORKER_METRICS_PORT, settings.HOST, log, { readiness, certificates: temporalCertificateExpiries(settings) })
    : undefined;
const runtime = await startServiceRuntime(settings, log, registryDatabase);
const { idp, kind } = await identityProviderFor(keycloakSettings, runtime.orm, settings.PUBLIC_BASE_URL ?? `http://127.0.0.1:${settings.PORT}`);
log.info({ identityProvider: kind }, 'identity provider selected');
const tracing = await startTracing(settings, 'worker');
const worker = await startWorker({ settings, log, orm: runtime.orm, temporal: { ...runtime.temporal, tracing }, idp, secretBox: runtime.secretBox, observed, readiness });
shutdownOnSignals(log, [() => worker.stop(), async () => tracing?.shutdown(), () => runtime.stop()]);
// Started: the next start loads every module from the compile cache (platform/serviceProcessSettings.ts).
flushCompileCache();
await worker.running;
