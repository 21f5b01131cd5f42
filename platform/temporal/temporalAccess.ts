import type { TLSConfig } from '@temporalio/client';
import type { PayloadCodec } from '@temporalio/common';

/** How this process reaches Temporal: where, over which TLS, and the codec every payload passes (API and worker alike). */
export interface TemporalAccess {
  address: string;
  tls?: TLSConfig;
  payloadCodec: PayloadCodec;
}
