import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { WebhookEndpointRecord } from './webhookEndpointRepository.ts';
import { WEBHOOK_SECRET_OVERLAP_SECONDS } from './webhookDeliveryPolicy.ts';
import { newWebhookSecret } from './webhookSecret.ts';

/**
 * A new secret, answered this once; for 24 hours every delivery is signed with both, so receivers switch to the new
 * one whenever they like within the day. A second rotation within the day drops the oldest secret.
 */
export async function rotateWebhookSecret(
  { stores }: RegistryContext,
  id: string,
  meta: RequestMeta,
): Promise<{ endpoint: WebhookEndpointRecord; secret: string; previousSecretUntil: Date }> {
  const secret = newWebhookSecret();
  const rotated = await stores.webhookEndpoints.rotateSecret(
    id,
    secret,
    WEBHOOK_SECRET_OVERLAP_SECONDS,
    { action: 'webhook_endpoint.secret_rotated', target_id: id, target_type: 'webhook_endpoint', metadata: { overlap_seconds: WEBHOOK_SECRET_OVERLAP_SECONDS } },
    meta,
  );
  if (!rotated) throw notFound('webhook endpoint');
  return { ...rotated, secret };
}
