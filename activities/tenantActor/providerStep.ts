import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { WorkerMetrics } from '../../platform/metrics/workerMetrics.ts';

/** One call of the actor's activities into the identity provider, named by its step (`organization`, `invite`, …). */
export type ProviderStep = <T>(step: string, call: () => Promise<T>) => Promise<T>;

/** The global tracer: a no-op unless tracing registered its provider (platform/tracing). */
const providerStepTracer = trace.getTracer('tenant-registry');

/** A provider step: its own span within the activity's (traces on), timed when metrics are on. */
export function providerStepOf(metrics: WorkerMetrics | undefined): ProviderStep {
  return <T>(step: string, call: () => Promise<T>): Promise<T> =>
    providerStepTracer.startActiveSpan(`ProviderStep:${step}`, (span) => {
      const end = metrics?.provisioningStepDuration.startTimer({ step });
      return call().then(
        (value) => {
          end?.({ outcome: 'succeeded' });
          span.end();
          return value;
        },
        (error: unknown) => {
          end?.({ outcome: 'failed' });
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
          span.end();
          throw error;
        },
      );
    });
}
