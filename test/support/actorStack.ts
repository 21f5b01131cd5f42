import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { testPayloadCodec, testTemporalAccess } from './testTemporalAccess.ts';
import { NativeConnection, Worker } from '@temporalio/worker';
import { workerActivities } from '../../worker/createTenantWorker.ts';
import { SimulatedIdentityProvider } from '../../identityProvider/simulatedIdentityProvider.ts';
import type { IdentityProvider } from '../../identityProvider/identityProvider.ts';
import { TenantActorClient } from '../../api/temporalClients/tenantActorClient.ts';
import { startOutboxRelay } from '../../api/changeEffects/outboxRelay.ts';
import { AuditStreamClient } from '../../api/temporalClients/auditStreamClient.ts';
import { WebhookDeliveryClient } from '../../api/temporalClients/webhookDeliveryClient.ts';
import { runChecks, storeCheck } from '../../api/readinessChecks.ts';
import { createLogger } from '../../platform/logger.ts';
import type { Settings } from '../../platform/config.ts';
import type { AuthConfig } from '../../api/auth/authConfig.ts';
import { startTestService, type TestService } from './testService.ts';
import { domainChecksOf } from '../../platform/domainChecksOf.ts';
import { samlMetadataReaderOf } from '../../activities/tenantActor/samlMetadataReaderOf.ts';
import { retentionPeriodsOf } from '../../worker/retentionPeriodsOf.ts';
import { testSecretBox } from './testSecretBox.ts';
import type { WorkerMetrics } from '../../platform/metrics/workerMetrics.ts';

export interface ActorStack {
  service: TestService;
  /** The API's Temporal client of the tenant actors. */
  dispatcher: TenantActorClient;
  idp: IdentityProvider;
  taskQueue: string;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

export interface ActorStackOptions {
  settings?: Partial<Settings>;
  /** Temporal address the API uses (e.g. a proxy in front of the test server); the worker always uses the server. */
  apiTemporalAddress?: string;
  relayIntervalMs?: number;
  /** OUTBOX_MAX_ATTEMPTS of the stack's relay. */
  outboxMaxAttempts?: number;
  /** Start without a worker (a test starts it, possibly as another process). */
  withoutWorker?: boolean;
  /** The provider behind API and worker; default: the simulated one on the service's database. */
  idp?: (service: TestService) => IdentityProvider;
  /** The worker's activities as a test wraps them (a failure injected into one); default: the real ones. */
  activities?: (real: ReturnType<typeof workerActivities>) => ReturnType<typeof workerActivities>;
  /** The API's authentication; default off. */
  authConfig?: AuthConfig;
  /** The worker's metrics, for a test that reads what its activities count; default none. */
  workerMetrics?: WorkerMetrics;
}

/**
 * The API over HTTP with its Temporal dispatcher and outbox relay, a worker with the real activities and the
 * simulated provider (or options.idp) on the run's PostgreSQL, all on a task queue of its own so test files cannot steal each
 * other's tasks.
 */
export async function startActorStack(options: ActorStackOptions = {}): Promise<ActorStack> {
  const taskQueue = `tenant-registry-test-${randomUUID()}`;
  const temporalAddress = inject('temporalAddress');
  const settings: Partial<Settings> = {
    PROVISIONING_WAIT_MS: 20_000,
    TEMPORAL_TASK_QUEUE: taskQueue,
    ...options.settings,
  };
  const log = createLogger('silent', 'test-relay');
  const dispatcher = new TenantActorClient({
    log,
    temporal: testTemporalAccess(options.apiTemporalAddress ?? temporalAddress),
    namespace: 'default',
    taskQueue,
    handOffTimeoutMs: settings.TEMPORAL_HANDOFF_TIMEOUT_MS ?? 3000,
    retry: {
      initialIntervalMs: settings.PROVISIONING_RETRY_INITIAL_MS ?? 100,
      backoffCoefficient: 2,
      maximumIntervalMs: settings.PROVISIONING_RETRY_MAX_INTERVAL_MS ?? 400,
      maximumAttempts: settings.PROVISIONING_RETRY_MAX_ATTEMPTS ?? 3,
    },
  });
  const service = await startTestService(settings, {
    tenantActors: dispatcher,
    auditStreams: new AuditStreamClient(dispatcher.client, taskQueue, 3000),
    webhookDeliveries: new WebhookDeliveryClient(dispatcher.client, taskQueue, 3000),
    ...(options.authConfig ? { authConfig: options.authConfig } : {}),
  });
  // The provider shares the service's ORM, so it joins the app's dependencies once the service exists.
  const idp: IdentityProvider = options.idp?.(service) ?? new SimulatedIdentityProvider(service.deps.orm, service.baseUrl);
  service.deps.identityProvider = idp;
  service.deps.users = idp;
  service.deps.ssoLinks = idp;
  service.deps.ssoServiceProvider = (alias) => idp.ssoServiceProvider(alias);
  service.deps.readiness = () =>
    runChecks({ store: storeCheck(service.deps.orm), identity_provider: async () => (await idp.ping(), { status: 'up' }), temporal: () => dispatcher.ping() }, 2000);
  const relay = startOutboxRelay({
    outbox: service.deps.stores.outbox,
    audit: service.deps.stores.audit,
    dispatcher: service.deps.effects,
    handOffTimeoutMs: settings.TEMPORAL_HANDOFF_TIMEOUT_MS ?? 3000,
    log,
    intervalMs: options.relayIntervalMs ?? 500,
    maxAttempts: options.outboxMaxAttempts,
  });

  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let connection: NativeConnection | undefined;
  const stack: ActorStack = {
    service,
    dispatcher,
    idp,
    taskQueue,
    async startWorker() {
      connection = await NativeConnection.connect({ address: temporalAddress });
      worker = await Worker.create({
        connection,
        taskQueue,
        workflowBundle: { codePath: inject('workflowBundlePath') },
        activities: (options.activities ?? ((real) => real))(workerActivities({
          orm: service.deps.orm,
          idp,
          auditStreamTimeoutMs: 2_000,
          auditStreamAllowedHosts: service.deps.settings.AUDIT_STREAM_ALLOWED_HOSTS,
          secretBox: testSecretBox(),
          domainChecks: domainChecksOf(service.deps.settings),
          samlMetadata: samlMetadataReaderOf(service.deps.settings),
          metadataRefreshHours: service.deps.settings.SSO_METADATA_REFRESH_HOURS,
          retention: retentionPeriodsOf(service.deps.settings),
          metrics: options.workerMetrics,
        })),
        dataConverter: { payloadCodecs: [testPayloadCodec()] },
      });
      running = worker.run();
    },
    async stopWorker() {
      if (worker && worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection?.close();
      worker = undefined;
    },
    async close() {
      await stack.stopWorker();
      await relay.stop();
      await dispatcher.close();
      await service.close();
    },
  };
  if (!options.withoutWorker) await stack.startWorker();
  return stack;
}
