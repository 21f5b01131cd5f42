import { checkStreamTarget } from '../auditStreams/checkStreamTarget.ts';
import type { StreamTargets } from '../auditStreams/streamTargets.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { WebhookEndpointChange } from '../schemas/webhookEndpoint.ts';
import { checkEventTypes } from './checkEventTypes.ts';
import type { WebhookEndpointRecord } from './webhookEndpointRepository.ts';

/** What a change changed, for its audit event: each field's new value. */
function changedFields(before: WebhookEndpointRecord, after: WebhookEndpointRecord): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (before.url !== after.url) changes.url = after.url;
  if (before.types.join('\n') !== after.types.join('\n')) changes.types = after.types;
  if (before.state !== after.state) changes.state = after.state;
  return changes;
}

/**
 * Changes the url (under the address rule), the types or the state; then delivery hears of it: a disabled endpoint
 * stops at its next step, an enabled one resumes where it stood, and a failing one is retried at once.
 */
export async function changeWebhookEndpoint(
  { stores, effects }: RegistryContext,
  id: string,
  input: WebhookEndpointChange,
  targets: StreamTargets,
  meta: RequestMeta,
): Promise<WebhookEndpointRecord> {
  if (input.url !== undefined) await checkStreamTarget(input.url, targets);
  const types = input.types === undefined ? undefined : checkEventTypes(input.types);
  const endpoint = await stores.webhookEndpoints.change(
    id,
    { ...(input.url === undefined ? {} : { url: input.url }), ...(types === undefined ? {} : { types }), ...(input.state === undefined ? {} : { state: input.state }) },
    (before, after) => ({ action: 'webhook_endpoint.updated', target_id: id, target_type: 'webhook_endpoint', target_name: new URL(after.url).host, metadata: changedFields(before, after) }),
    meta,
  );
  if (!endpoint) throw notFound('webhook endpoint');
  await effects.webhookEndpointChanged(endpoint);
  return endpoint;
}
