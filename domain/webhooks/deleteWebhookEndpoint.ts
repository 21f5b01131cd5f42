import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';

/** Marks the endpoint deleted with its audit event; its delivery ends at its next step (told at once when it can be). */
export async function deleteWebhookEndpoint({ stores, effects }: RegistryContext, id: string, meta: RequestMeta): Promise<void> {
  const endpoint = await stores.webhookEndpoints.find(id);
  const deleted = endpoint && (await stores.webhookEndpoints.markDeleted(id, { action: 'webhook_endpoint.deleted', target_id: id, target_type: 'webhook_endpoint' }, meta));
  if (!endpoint || !deleted) throw notFound('webhook endpoint');
  await effects.webhookEndpointChanged({ ...endpoint, deletedAt: new Date() });
}
