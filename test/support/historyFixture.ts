import { resolve } from 'node:path';
import type { Payload, PayloadCodec } from '@temporalio/common';

const projectRoot = resolve(import.meta.dirname, '../..');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isPayload = (value: { [key: string]: Json }): value is { metadata: Record<string, string>; data?: string } =>
  typeof value.metadata === 'object' && value.metadata !== null && !Array.isArray(value.metadata);

/**
 * A history exported by `temporal workflow show --output json` made fit to commit as a replay fixture: its payloads
 * decoded (so replay needs no key, like a production history exported through the codec endpoint) and the
 * checkout's path cut from the stack traces its failures carry.
 */
export async function historyFixture(exported: string, codec: PayloadCodec): Promise<string> {
  const history = JSON.parse(exported.replaceAll(`${projectRoot}/`, '')) as Json;
  const payloads: { [key: string]: Json }[] = [];
  const collect = (value: Json) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') {
      if (isPayload(value)) payloads.push(value);
      else Object.values(value).forEach(collect);
    }
  };
  collect(history);
  const decoded = await codec.decode(payloads.map(toPayload));
  decoded.forEach((payload, i) => Object.assign(payloads[i]!, fromPayload(payload)));
  return `${JSON.stringify(history, null, 2)}\n`;
}

const toPayload = (json: { [key: string]: Json }): Payload => ({
  metadata: Object.fromEntries(Object.entries(json.metadata as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from((json.data as string | undefined) ?? '', 'base64'),
});

const fromPayload = (payload: Payload): { metadata: Record<string, string>; data: string } => ({
  metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')])),
  data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
});
