import type { Settings } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { Orm } from '../store/orm.ts';
import type { IdentityProvider } from '../identityProvider/identityProvider.ts';
import type { AuthConfig } from './auth/authConfig.ts';
import { securityWarnings } from './securityWarnings.ts';
import { createApiMetrics } from './apiMetrics.ts';
import { startMetricsServer } from '../platform/metrics/metricsServer.ts';
import type { TemporalAccess } from '../platform/temporal/temporalAccess.ts';
import { createApp } from './app.ts';
import type { AppDependencies } from './appDependencies.ts';
import { listen, listenerOf, type RunningHttpServer } from '../platform/httpServer.ts';
import { byListener, onListener } from './listenerScope.ts';
import { requestAdmissionOf } from './requestAdmissionOf.ts';
import { runChecks, storeCheck, type CheckResult } from './readinessChecks.ts';
import { auditStreamLag } from '../domain/auditStreams/auditStreamLag.ts';
import { temporalCertificateExpiries } from '../platform/temporal/temporalCertificateExpiries.ts';
import { startOutboxRelay } from './changeEffects/outboxRelay.ts';
import { TenantActorClient } from './temporalClients/tenantActorClient.ts';
import { RegistryCache } from '../domain/reads/registryCache.ts';
import { startCacheSweep } from './cacheSweep.ts';
import { startChangeListener } from '../store/changeListener.ts';
import { postgresStores } from '../store/postgresStores.ts';
import { AuditStreamClient } from './temporalClients/auditStreamClient.ts';
import { startAuditStreamReconciler } from './temporalClients/auditStreamReconciler.ts';
import { WebhookDeliveryClient } from './temporalClients/webhookDeliveryClient.ts';
import { startWebhookDeliveryReconciler } from './temporalClients/webhookDeliveryReconciler.ts';
import type { SecretBox } from '../platform/secretBox.ts';
import { untilAvailable } from '../platform/untilAvailable.ts';

export interface RunningApi {
  http: RunningHttpServer;
  tenantActors: TenantActorClient;
  /** Drains in-flight requests (bounded by SHUTDOWN_GRACE_MS), then stops the relay and the Temporal client. */
  stop(): Promise<void>;
}

export async function startApi(options: {
  settings: Settings;
  authConfig: AuthConfig;
  log: Logger;
  orm: Orm;
  temporal: TemporalAccess;
  idp: IdentityProvider;
  secretBox: SecretBox;
}): Promise<RunningApi> {
  const { settings, log, orm, idp } = options;
  for (const { level, message } of securityWarnings(settings, options.authConfig)) log[level](message);
  const tenantActors = new TenantActorClient({
    temporal: options.temporal,
    log,
    namespace: settings.TEMPORAL_NAMESPACE,
    taskQueue: settings.TEMPORAL_TASK_QUEUE,
    handOffTimeoutMs: settings.TEMPORAL_HANDOFF_TIMEOUT_MS,
    retry: {
      initialIntervalMs: settings.PROVISIONING_RETRY_INITIAL_MS,
      backoffCoefficient: 2,
      maximumIntervalMs: settings.PROVISIONING_RETRY_MAX_INTERVAL_MS,
      maximumAttempts: settings.PROVISIONING_RETRY_MAX_ATTEMPTS,
    },
  });
  const cache = new RegistryCache({ ttlMs: settings.CACHE_TTL_SECONDS * 1000, staleIfErrorMs: settings.CACHE_STALE_IF_ERROR_SECONDS * 1000 });
  const changes = startChangeListener({ databaseUrl: orm.config.get('clientUrl')!, cache, log });
  const cacheSweep = startCacheSweep(cache);
  const stores = postgresStores(orm, options.secretBox);
  // PostgreSQL may go away between the schema check and here (a database restarting): the start waits for it again.
  const sealed = await untilAvailable('PostgreSQL', () => stores.auditStreams.sealPlaintextSecrets(), log);
  if (sealed > 0) log.info({ sealed }, 'encrypted the secrets of audit streams stored before secrets were encrypted');
  const requests = requestAdmissionOf(settings);
  // The scrape reads the checks /readyz answers with, made (and cached) by createApp below.
  let readiness = async (): Promise<Record<string, CheckResult>> => ({});
  const metrics =
    settings.METRICS_PORT > 0
      ? createApiMetrics({
          cache,
          outbox: stores.outbox,
          requests,
          readiness: () => readiness(),
          auditStreamLag: () => auditStreamLag(stores.auditStreams, stores.audit, new Date()),
          certificates: temporalCertificateExpiries(settings),
        })
      : undefined;
  const auditStreams = new AuditStreamClient(tenantActors.client, settings.TEMPORAL_TASK_QUEUE, settings.TEMPORAL_HANDOFF_TIMEOUT_MS);
  const webhookDeliveries = new WebhookDeliveryClient(tenantActors.client, settings.TEMPORAL_TASK_QUEUE, settings.TEMPORAL_HANDOFF_TIMEOUT_MS);
  const deps: AppDependencies = {
    cache,
    stores,
    auditStreams,
    webhookDeliveries,
    settings,
    authConfig: options.authConfig,
    orm,
    log,
    tenantActors,
    identityProvider: idp,
    payloadCodec: options.temporal.payloadCodec,
    secretBox: options.secretBox,
    metrics,
    tracer: options.temporal.tracing?.tracer,
    // Only the store decides the status code; the provider and Temporal are reported beside it.
    readiness: () =>
      runChecks(
        {
          store: storeCheck(orm),
          identity_provider: async () => (await idp.ping(), { status: 'up' }),
          temporal: () => tenantActors.ping(),
          // Reported, never deciding: a dead-lettered hand-off needs an operator, not a restart.
          outbox: async () => {
            const { deadLettered } = await stores.outbox.backlog();
            return deadLettered > 0 ? { status: 'down', message: `${deadLettered} dead-lettered hand-offs (docs/reliability.md)`, public: true } : { status: 'up' };
          },
        },
        2000,
      ),
  };
  const { app, internal, refusal, context } = createApp(deps);
  readiness = context.readiness;
  const relay = startOutboxRelay({
    outbox: stores.outbox,
    audit: stores.audit,
    dispatcher: context.effects,
    handOffTimeoutMs: settings.TEMPORAL_HANDOFF_TIMEOUT_MS,
    log,
    intervalMs: settings.OUTBOX_RELAY_INTERVAL_MS,
    maxAttempts: settings.OUTBOX_MAX_ATTEMPTS,
  });
  const streamReconciler = startAuditStreamReconciler({ streams: stores.auditStreams, client: auditStreams, log, intervalMs: settings.AUDIT_STREAM_RECONCILE_INTERVAL_MS });
  const webhookReconciler = startWebhookDeliveryReconciler({ endpoints: stores.webhookEndpoints, client: webhookDeliveries, log, intervalMs: settings.AUDIT_STREAM_RECONCILE_INTERVAL_MS });
  // With INTERNAL_PORT the internal calls have a port and an app of their own (api/internalApp.ts); both share the
  // admission, the guards and the context.
  const separate = settings.INTERNAL_PORT > 0;
  const served = listenerOf(app.callback());
  const handler = requests.listenerFor(separate ? byListener(served, listenerOf(internal.callback())) : served, listenerOf(refusal.callback()));
  const http = await listen(separate ? onListener('public', handler) : handler, settings.PORT, settings.HOST);
  const internalHttp = separate ? await listen(onListener('internal', handler), settings.INTERNAL_PORT, settings.HOST) : undefined;
  log.info({ port: http.port, ...(internalHttp ? { internalPort: internalHttp.port } : {}) }, 'tenant registry API listening');
  const metricsServer = metrics
    ? await startMetricsServer(settings.METRICS_PORT, settings.HOST, async () => ({ contentType: metrics.registry.contentType, text: await metrics.registry.metrics() }), log)
    : undefined;
  return {
    http,
    tenantActors,
    async stop() {
      await Promise.all([http.close(settings.SHUTDOWN_GRACE_MS), internalHttp?.close(settings.SHUTDOWN_GRACE_MS)]);
      await metricsServer?.close();
      // The verifies just answered may have marked keys as used, and the claims calls refused sign-ins.
      await context.lastUsedMarks.flush();
      await context.signInAudit.close();
      await relay.stop();
      await streamReconciler.stop();
      await webhookReconciler.stop();
      await changes.stop();
      cacheSweep.stop();
      await tenantActors.close();
    },
  };
}
