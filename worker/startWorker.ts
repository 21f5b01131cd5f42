import { domainChecksOf } from '../platform/domainChecksOf.ts';
import { Runtime } from '@temporalio/worker';
import type { Settings } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { Orm } from '../store/orm.ts';
import type { IdentityProvider } from '../identityProvider/identityProvider.ts';
import { createTenantWorker } from './createTenantWorker.ts';
import { startWorkerMetrics } from './workerMetricsEndpoint.ts';
import type { TemporalAccess } from '../platform/temporal/temporalAccess.ts';
import type { SecretBox } from '../platform/secretBox.ts';
import { temporalWithoutTlsWarning } from '../platform/temporal/temporalWithoutTlsWarning.ts';

/** Runs the tenant-actor worker until stop(); stop lets running activities finish (Temporal's graceful shutdown). */
export async function startWorker(options: { settings: Settings; log: Logger; orm: Orm; temporal: TemporalAccess; idp: IdentityProvider; secretBox: SecretBox }) {
  // The worker's share of api/securityWarnings.ts: it reaches the same Temporal.
  const withoutTls = temporalWithoutTlsWarning(options.settings);
  if (withoutTls) options.log[withoutTls.level](withoutTls.message);
  const observed = options.settings.WORKER_METRICS_PORT > 0 ? await startWorkerMetrics(options.settings.WORKER_METRICS_PORT, options.settings.HOST, options.log) : undefined;
  // No signal handlers of the SDK's own: on SIGTERM it would shut the worker down by itself, racing shutdownOnSignals'
  // ordered steps (the process could end before the store was closed and the log said "stopped").
  Runtime.install({ shutdownSignals: [], telemetryOptions: observed?.sdkTelemetry });
  const { worker, connection } = await createTenantWorker({
    metrics: observed?.metrics,
    log: options.log,
    temporal: options.temporal,
    namespace: options.settings.TEMPORAL_NAMESPACE,
    taskQueue: options.settings.TEMPORAL_TASK_QUEUE,
    orm: options.orm,
    idp: options.idp,
    maxCachedWorkflows: options.settings.WORKER_MAX_CACHED_WORKFLOWS,
    auditStreamTimeoutMs: options.settings.AUDIT_STREAM_TIMEOUT_MS,
    auditStreamAllowedHosts: options.settings.AUDIT_STREAM_ALLOWED_HOSTS,
    secretBox: options.secretBox,
    trialReminderDays: options.settings.TRIAL_REMINDER_DAYS,
    domainChecks: domainChecksOf(options.settings),
  });
  const running = worker.run();
  options.log.info({ taskQueue: options.settings.TEMPORAL_TASK_QUEUE }, 'tenant actor worker running');
  return {
    running,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
      await observed?.close();
    },
  };
}
