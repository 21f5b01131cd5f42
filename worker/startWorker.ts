import { domainChecksOf } from '../platform/domainChecksOf.ts';
import { samlMetadataReaderOf } from '../activities/tenantActor/samlMetadataReaderOf.ts';
import { Runtime } from '@temporalio/worker';
import type { Settings } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { Orm } from '../store/orm.ts';
import type { IdentityProvider } from '../identityProvider/identityProvider.ts';
import { createTenantWorker } from './createTenantWorker.ts';
import type { WorkerObservation } from './workerMetricsEndpoint.ts';
import type { WorkerReadiness } from './workerReadiness.ts';
import type { TemporalAccess } from '../platform/temporal/temporalAccess.ts';
import type { SecretBox } from '../platform/secretBox.ts';
import { temporalWithoutTlsWarning } from '../platform/temporal/temporalWithoutTlsWarning.ts';
import { retentionPeriodsOf } from './retentionPeriodsOf.ts';
import { keepRetentionSweepStarted } from './retentionSweep.ts';

/**
 * Runs the tenant-actor worker until stop(), and keeps the retention sweep started; stop lets running activities
 * finish (Temporal's graceful shutdown).
 * `observed`: its metrics and health listener (WORKER_METRICS_PORT), started by the process before this, with the
 * readiness that watches the worker made here.
 */
export async function startWorker(options: {
  settings: Settings;
  log: Logger;
  orm: Orm;
  temporal: TemporalAccess;
  idp: IdentityProvider;
  secretBox: SecretBox;
  observed?: WorkerObservation;
  readiness?: WorkerReadiness;
}) {
  // The worker's share of api/securityWarnings.ts: it reaches the same Temporal.
  const withoutTls = temporalWithoutTlsWarning(options.settings);
  if (withoutTls) options.log[withoutTls.level](withoutTls.message);
  const { observed } = options;
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
    samlMetadata: samlMetadataReaderOf(options.settings),
    metadataRefreshHours: options.settings.SSO_METADATA_REFRESH_HOURS,
    retention: retentionPeriodsOf(options.settings),
  });
  const running = worker.run();
  const retentionSweep = keepRetentionSweepStarted({
    connection,
    namespace: options.settings.TEMPORAL_NAMESPACE,
    taskQueue: options.settings.TEMPORAL_TASK_QUEUE,
    payloadCodec: options.temporal.payloadCodec,
    log: options.log,
    timeoutMs: options.settings.TEMPORAL_HANDOFF_TIMEOUT_MS,
  });
  options.readiness?.watch(worker, connection);
  options.log.info({ taskQueue: options.settings.TEMPORAL_TASK_QUEUE }, 'tenant actor worker running');
  return {
    running,
    async stop() {
      await retentionSweep.stop();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
      await observed?.close();
    },
  };
}
