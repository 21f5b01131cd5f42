import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Context } from '@temporalio/activity';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Orm } from '../store/orm.ts';
import type { IdentityProvider } from '../identityProvider/identityProvider.ts';
import { createTenantActorActivities } from '../activities/tenantActor/tenantActorActivities.ts';
import { createAuditStreamActivities } from '../activities/auditStream/auditStreamActivities.ts';
import { createWebhookDeliveryActivities } from '../activities/webhookDelivery/webhookDeliveryActivities.ts';
import { postgresStores } from '../store/postgresStores.ts';
import type { SecretBox } from '../platform/secretBox.ts';
import { systemHostResolver } from '../platform/hostResolver.ts';
import type { ResolveHost } from '../domain/auditStreams/streamTargets.ts';
import type { DomainChecks } from '../domain/domains/domainChecks.ts';
import type { SamlMetadataSource } from '../domain/sso/samlMetadataSource.ts';
import type { RetentionPeriods } from '../domain/retention/retainedRows.ts';
import { createRetentionActivities } from '../activities/retention/retentionActivities.ts';
import { PostgresRetainedRows } from '../store/postgresRetainedRows.ts';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/** Run once in the sandbox before its globals are frozen: see the module. */
const workflowStackTraceLimitPath = fileURLToPath(new URL('../workflows/workflowStackTraceLimit.ts', import.meta.url));

/** Temporal's OpenTelemetry workflow interceptors, bundled with the workflows when the worker traces. */
const tracingInterceptorsPath = createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** Bundles the workflow code once; tests and the all-in-one process reuse it across workers. */
export const bundleWorkflows = (options: { tracing?: boolean } = {}): Promise<WorkflowBundleWithSourceMap> =>
  bundleWorkflowCode({
    workflowsPath,
    workflowInterceptorModules: options.tracing ? [tracingInterceptorsPath] : [],
    preloadModules: [workflowStackTraceLimitPath],
    logger: quietBundlerLogger,
    // The SDK reads a source map from the bundle; line-level mappings without the sources inlined keep the worker's
    // parsed copy (kept for the life of the worker) a fraction of what a full source map would make it.
    webpackConfigHook: (config) => ({ ...config, devtool: 'inline-nosources-cheap-module-source-map' }),
  });

/**
 * The same bundle, made by a child process. Bundling loads webpack and holds much memory while it runs; done in the
 * service's own process that memory is never given back, so the long-running worker bundles this way.
 */
export async function bundleWorkflowsInChildProcess(options: { tracing?: boolean } = {}): Promise<{ code: string }> {
  const script = fileURLToPath(new URL('./printWorkflowBundle.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [script, ...(options.tracing ? ['--tracing'] : [])], { maxBuffer: 256 * 1024 * 1024 });
  return { code: stdout };
}

const quietBundlerLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
import type { TemporalAccess } from '../platform/temporal/temporalAccess.ts';
import type { WorkerMetrics } from '../platform/metrics/workerMetrics.ts';
import { untilAvailable } from '../platform/untilAvailable.ts';
import { createLogger, type Logger } from '../platform/logger.ts';
import { pushesInTurn } from '../identityProvider/pushesInTurn.ts';
import { SimulatedIdentityProvider } from '../identityProvider/simulatedIdentityProvider.ts';
import { withUserAttributeTurn } from '../store/userAttributeTurns.ts';

const silentLog = createLogger('silent', 'worker');

export interface TenantWorkerOptions {
  temporal: TemporalAccess;
  namespace: string;
  taskQueue: string;
  orm: Orm;
  idp: IdentityProvider;
  workflowBundle?: WorkflowBundleWithSourceMap;
  /** Tenant actors kept in memory between tasks (WORKER_MAX_CACHED_WORKFLOWS); default: the SDK's. */
  maxCachedWorkflows?: number;
  /** Bound on one audit stream delivery (AUDIT_STREAM_TIMEOUT_MS), and on resolving its host. */
  auditStreamTimeoutMs?: number;
  /** AUDIT_STREAM_ALLOWED_HOSTS */
  auditStreamAllowedHosts?: readonly string[];
  /** How a stream's host is resolved at each delivery; default: the system resolver. */
  resolveHost?: ResolveHost;
  /** Opens the secrets the stores keep (REGISTRY_SECRET_KEYS). */
  secretBox: SecretBox;
  /** TRIAL_REMINDER_DAYS */
  trialReminderDays?: number;
  /** Domains' TXT look-ups and their times (DNS_SERVERS, DOMAIN_*); absent, the actor checks no domain. */
  domainChecks?: DomainChecks;
  /** Reads SAML metadata URLs again (samlMetadataReaderOf); absent, the actor reads none. */
  samlMetadata?: SamlMetadataSource;
  /** SSO_METADATA_REFRESH_HOURS */
  metadataRefreshHours?: number;
  /** How long each kind of retained row is kept once it ended (worker/retentionPeriodsOf.ts). */
  retention: RetentionPeriods;
  metrics?: WorkerMetrics;
  /** Where waiting for Temporal at start is reported. */
  log?: Logger;
}

/** Every activity the worker runs: the tenant actors', the audit streams', the webhook endpoints' and the retention sweep's. */
export function workerActivities(
  options: Pick<
    TenantWorkerOptions,
    'orm' | 'idp' | 'auditStreamTimeoutMs' | 'auditStreamAllowedHosts' | 'resolveHost' | 'secretBox' | 'trialReminderDays' | 'metrics' | 'domainChecks' | 'samlMetadata' | 'metadataRefreshHours' | 'retention'
  >,
) {
  const stores = postgresStores(options.orm, options.secretBox);
  const timeoutMs = options.auditStreamTimeoutMs ?? 5_000;
  const targets = { allowedHosts: options.auditStreamAllowedHosts, resolveHost: options.resolveHost ?? systemHostResolver(timeoutMs) };
  return {
    ...createTenantActorActivities({
      stores,
      // The simulator's push is already a conditional write (and its statements use the pool a turn would hold).
      idp:
        options.idp instanceof SimulatedIdentityProvider
          ? options.idp
          : pushesInTurn(options.idp, (userId, work) => withUserAttributeTurn(options.orm, userId, work)),
      trialReminderDays: options.trialReminderDays,
      domainChecks: options.domainChecks,
      samlMetadata: options.samlMetadata,
      metadataRefreshHours: options.metadataRefreshHours,
      metrics: options.metrics,
    }),
    ...createAuditStreamActivities({
      streams: stores.auditStreams,
      audit: stores.audit,
      timeoutMs,
      targets,
    }),
    // The same outbound rule and bound as the audit streams' (docs/security.md).
    ...createWebhookDeliveryActivities({ endpoints: stores.webhookEndpoints, audit: stores.audit, timeoutMs, targets }),
    ...createRetentionActivities({ rows: new PostgresRetainedRows(options.orm), periods: options.retention, metrics: options.metrics }),
  };
}

/** A worker for the tenant actors, the audit streams, the webhook endpoints and the retention sweep: deterministic workflow code in its sandbox, side effects as activities. */
export async function createTenantWorker(options: TenantWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const { tracing } = options.temporal;
  // Started while Temporal is down: wait for it rather than exit (a supervisor would only restart into the same wait).
  const connection = await untilAvailable(
    'Temporal',
    () => NativeConnection.connect({ address: options.temporal.address, tls: options.temporal.tls }),
    options.log ?? silentLog,
  );
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: options.workflowBundle ?? (await bundleWorkflowsInChildProcess({ tracing: tracing !== undefined })),
    activities: workerActivities(options),
    dataConverter: { payloadCodecs: [options.temporal.payloadCodec] },
    ...(tracing
      ? {
          interceptors: {
            workflowModules: [tracingInterceptorsPath],
            activity: [
              (ctx: Context) => ({ inbound: new tracing.temporal.OpenTelemetryActivityInboundInterceptor(ctx), outbound: new tracing.temporal.OpenTelemetryActivityOutboundInterceptor(ctx) }),
            ],
          },
          sinks: { exporter: tracing.temporal.makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
        }
      : {}),
    ...(options.maxCachedWorkflows ? { maxCachedWorkflows: options.maxCachedWorkflows } : {}),
  });
  return { worker, connection };
}
