import { invalidInput, notFound } from '../errors.ts';
import { idOfSequence } from '../events/cloudEvent.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { WebhookEndpointRecord } from './webhookEndpointRepository.ts';

/**
 * Delivers again, in order, every matching event from `fromSequence` on: the request is stored with the endpoint (a
 * restart cannot lose it), then delivery is told at once when it can be. A disabled endpoint keeps the request and
 * carries it out once enabled.
 */
export async function replayWebhookEndpoint({ stores, effects }: RegistryContext, id: string, fromSequence: string | number, meta: RequestMeta): Promise<WebhookEndpointRecord> {
  const from = typeof fromSequence === 'number' ? fromSequence : idOfSequence(fromSequence);
  if (from === undefined) throw invalidInput('from_sequence is beyond the sequences the registry gives (2^53 - 1)');
  const endpoint = await stores.webhookEndpoints.requestReplay(
    id,
    Math.max(0, from - 1),
    { action: 'webhook_endpoint.replay_requested', target_id: id, target_type: 'webhook_endpoint', metadata: { from_sequence: from } },
    meta,
  );
  if (!endpoint) throw notFound('webhook endpoint');
  await effects.webhookEndpointChanged(endpoint);
  return endpoint;
}
