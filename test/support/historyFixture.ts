import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PayloadCodec } from '@temporalio/common';
import { transcodePayloads } from '../../platform/temporal/transcodePayloads.ts';

const projectRoot = resolve(import.meta.dirname, '../..');
/** Where the packages really are: a checkout may link its node_modules from another. */
const packagesRoot = realpathSync(resolve(projectRoot, 'node_modules'));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonPayload = { metadata: Record<string, string>; data?: string };
const isPayload = (value: { [key: string]: Json }): value is JsonPayload & { [key: string]: Json } =>
  typeof value.metadata === 'object' && value.metadata !== null && !Array.isArray(value.metadata);

/**
 * A history exported by `temporal workflow show --output json` made fit to commit as a replay fixture: its payloads
 * decoded (so replay needs no key, like a production history exported through the codec endpoint) and the
 * checkout's and its packages' paths cut from the stack traces its failures carry.
 */
export async function historyFixture(exported: string, codec: PayloadCodec): Promise<string> {
  const history = JSON.parse(exported.replaceAll(`${packagesRoot}/`, 'node_modules/').replaceAll(`${projectRoot}/`, '')) as Json;
  const payloads: JsonPayload[] = [];
  const collect = (value: Json) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') {
      if (isPayload(value)) payloads.push(value);
      else Object.values(value).forEach(collect);
    }
  };
  collect(history);
  // As the codec endpoint decodes: the encrypted payloads, the others (local activities' marker data) as they are.
  const decoded = await transcodePayloads(codec, 'decode', payloads);
  decoded.forEach((payload, i) => Object.assign(payloads[i]!, payload));
  return `${JSON.stringify(history, null, 2)}\n`;
}
