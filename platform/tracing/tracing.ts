import { trace, type Tracer } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface Tracing {
  tracer: Tracer;
  resource: Resource;
  /** What the worker's workflow span sink exports through (the same batch and exporter). */
  spanProcessor: SpanProcessor;
  /** Temporal's interceptors that carry the trace across workflows and activities, loaded with the SDK. */
  temporal: typeof import('@temporalio/interceptors-opentelemetry');
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry traces over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (SPEC-EXTENSIONS §6); undefined, and
 * nothing registered at all, otherwise. W3C trace context in and out; Node's fetch (undici) is instrumented, so the
 * identity provider's HTTP calls join the trace of the request or activity that made them. Temporal carries the
 * context across workflows and activities in its headers (@temporalio/interceptors-opentelemetry).
 * The SDK, its exporter and Temporal's interceptors are imported only when traces are on: loaded, they hold memory
 * for the process's life (issue #19's RSS target), which a process that exports nothing has no use for.
 */
export async function startTracing(
  settings: { OTEL_EXPORTER_OTLP_ENDPOINT?: string; OTEL_SERVICE_NAME: string },
  component: string,
): Promise<Tracing | undefined> {
  const endpoint = settings.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return undefined;
  const [core, otlp, instrumentation, undici, resources, traceBase, traceNode, conventions, temporal] = await Promise.all([
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/semantic-conventions'),
    import('@temporalio/interceptors-opentelemetry'),
  ]);
  const resource = new resources.Resource({ [conventions.ATTR_SERVICE_NAME]: settings.OTEL_SERVICE_NAME, 'service.component': component });
  const spanProcessor = new traceBase.BatchSpanProcessor(new otlp.OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }));
  const provider = new traceNode.NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register({ propagator: new core.W3CTraceContextPropagator() });
  const unregister = instrumentation.registerInstrumentations({ tracerProvider: provider, instrumentations: [new undici.UndiciInstrumentation()] });
  return {
    tracer: trace.getTracer('tenant-registry'),
    resource,
    spanProcessor,
    temporal,
    async shutdown() {
      unregister();
      await provider.shutdown();
    },
  };
}
