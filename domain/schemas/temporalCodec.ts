import { z } from 'zod';

const base64 = z.string().max(4 * 1024 * 1024).regex(/^[A-Za-z0-9+/]*={0,2}$/);

/** Temporal's Payloads in their protobuf JSON form (bytes as base64), as the Web UI sends and expects them. */
export const CodecPayloads = z
  .strictObject({
    payloads: z
      // Bounded by BODY_LIMIT_BYTES (413) rather than a count.
      .array(z.object({ metadata: z.record(z.string(), base64).optional(), data: base64.optional() })),
  })
  .meta({ id: 'CodecPayloads' });
export type CodecPayloads = z.infer<typeof CodecPayloads>;
