import { trace, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

export interface Tracing {
  tracer: Tracer;
  resource: Resource;
  /** What the worker's workflow span sink exports through (the same batch and exporter). */
  spanProcessor: SpanProcessor;
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry traces over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (SPEC-EXTENSIONS §6); undefined, and
 * nothing registered at all, otherwise. W3C trace context in and out; Node's fetch (undici) is instrumented, so the
 * identity provider's HTTP calls join the trace of the request or activity that made them. Temporal carries the
 * context across workflows and activities in its headers (@temporalio/interceptors-opentelemetry).
 */
export function startTracing(settings: { OTEL_EXPORTER_OTLP_ENDPOINT?: string; OTEL_SERVICE_NAME: string }, component: string): Tracing | undefined {
  const endpoint = settings.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return undefined;
  const resource = new Resource({ [ATTR_SERVICE_NAME]: settings.OTEL_SERVICE_NAME, 'service.component': component });
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  const unregister = registerInstrumentations({ tracerProvider: provider, instrumentations: [new UndiciInstrumentation()] });
  return {
    tracer: trace.getTracer('tenant-registry'),
    resource,
    spanProcessor,
    async shutdown() {
      unregister();
      await provider.shutdown();
    },
  };
}

