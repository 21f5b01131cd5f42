import type { Payload, PayloadCodec } from '@temporalio/common';
import { isEncryptedPayload } from './payloadEncryptionCodec.ts';

/** A payload as Temporal's remote codec protocol carries it in JSON: metadata values and data in base64. */
export interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

const toPayload = (json: JsonPayload): Payload => ({
  metadata: Object.fromEntries(Object.entries(json.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64')])),
  data: Buffer.from(json.data ?? '', 'base64'),
});

const toJson = (payload: Payload): Required<JsonPayload> => ({
  metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
  data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
});

/**
 * Decodes or encodes JSON payloads with the codec (the codec endpoint's work); rejects as the codec does. Decoding is
 * for showing a history, so a payload that is not encrypted is shown as it is (the data of a local activity's marker,
 * which Temporal's core writes itself; an intruder's input, which the worker refused): only the encrypted ones go to
 * the codec.
 */
export async function transcodePayloads(codec: PayloadCodec, direction: 'decode' | 'encode', payloads: JsonPayload[]): Promise<Required<JsonPayload>[]> {
  const given = payloads.map(toPayload);
  if (direction === 'encode') return (await codec.encode(given)).map(toJson);
  const decoded = await codec.decode(given.filter(isEncryptedPayload));
  return given.map((payload) => (isEncryptedPayload(payload) ? decoded.shift()! : payload)).map(toJson);
}
