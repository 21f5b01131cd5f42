import { freePort } from '../platform/freePort.ts';
import type { Logger } from '../platform/logger.ts';
import { startMetricsServer } from '../platform/metrics/metricsServer.ts';
import type { TelemetryOptions } from '@temporalio/worker';
import { createWorkerMetrics, type WorkerMetrics } from '../platform/metrics/workerMetrics.ts';
import type { CertificateExpiry } from '../platform/temporal/temporalCertificateExpiries.ts';
import type { WorkerReadiness } from './workerReadiness.ts';

export interface WorkerObservation {
  metrics: WorkerMetrics;
  sdkTelemetry: TelemetryOptions;
  close(): Promise<void>;
}

/**
 * The worker's listener (WORKER_METRICS_PORT): `/metrics`, its own metrics then the Temporal SDK's (pollers, task
 * latencies, slots, sticky cache), which the SDK's core serves on a loopback port of its own and this scrape appends,
 * so Prometheus has one target per worker; `/healthz` (the process answers) and `/readyz` (it polls Temporal:
 * worker/workerReadiness.ts). Started before the worker waits for PostgreSQL and Temporal, so a liveness probe sees
 * a live process meanwhile. `sdkTelemetry` goes to Runtime.install, before the worker's first connection.
 */
export async function startWorkerMetrics(
  port: number,
  host: string,
  log: Logger,
  sources: { readiness: WorkerReadiness; certificates: readonly CertificateExpiry[] },
): Promise<WorkerObservation> {
  const corePort = await freePort();
  const sdkTelemetry: TelemetryOptions = { metrics: { prometheus: { bindAddress: `127.0.0.1:${corePort}`, countersTotalSuffix: true, useSecondsForDurations: true } } };
  const metrics = createWorkerMetrics({ ready: () => sources.readiness.ready(), certificates: sources.certificates });
  const server = await startMetricsServer(
    port,
    host,
    async () => {
      const own = await metrics.registry.metrics();
      // The SDK's exporter answers once its runtime is up; until then the scrape carries our own metrics alone.
      const sdk = await fetch(`http://127.0.0.1:${corePort}/metrics`, { signal: AbortSignal.timeout(2000) }).then(
        (res) => (res.ok ? res.text() : ''),
        () => '',
      );
      return { contentType: metrics.registry.contentType, text: `${own}\n${sdk}` };
    },
    log,
    {
      '/healthz': async () => ({ status: 200, body: { status: 'ok' } }),
      '/readyz': () => sources.readiness.answer(),
    },
  );
  return { metrics, sdkTelemetry, close: () => server.close() };
}
