import type { TLSConfig } from '@temporalio/client';
import type { PayloadCodec } from '@temporalio/common';
import type { Tracing } from '../tracing/tracing.ts';

/** How this process reaches Temporal: where, over which TLS, and the codec every payload passes (API and worker alike). */
export interface TemporalAccess {
  address: string;
  tls?: TLSConfig;
  payloadCodec: PayloadCodec;
  /** Traces continue through Temporal's headers into workflows and activities (OTEL_EXPORTER_OTLP_ENDPOINT). */
  tracing?: Tracing;
}
