import { freePort } from '../platform/freePort.ts';
import type { Logger } from '../platform/logger.ts';
import { startMetricsServer } from '../platform/metrics/metricsServer.ts';
import type { TelemetryOptions } from '@temporalio/worker';
import { createWorkerMetrics, type WorkerMetrics } from '../platform/metrics/workerMetrics.ts';

/**
 * The worker's `/metrics` (WORKER_METRICS_PORT): its own metrics, then the Temporal SDK's (pollers, task latencies,
 * slots, sticky cache), which the SDK's core serves on a loopback port of its own and this scrape appends, so
 * Prometheus has one target per worker. `sdkTelemetry` goes to Runtime.install, before the worker's first connection.
 */
export async function startWorkerMetrics(
  port: number,
  host: string,
  log: Logger,
): Promise<{ metrics: WorkerMetrics; sdkTelemetry: TelemetryOptions; close(): Promise<void> }> {
  const corePort = await freePort();
  const sdkTelemetry: TelemetryOptions = { metrics: { prometheus: { bindAddress: `127.0.0.1:${corePort}`, countersTotalSuffix: true, useSecondsForDurations: true } } };
  const metrics = createWorkerMetrics();
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
  );
  return { metrics, sdkTelemetry, close: () => server.close() };
}
