import { randomUUID } from 'node:crypto';
import { checkStreamTarget } from '../auditStreams/checkStreamTarget.ts';
import type { StreamTargets } from '../auditStreams/streamTargets.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { WebhookEndpointCreate } from '../schemas/webhookEndpoint.ts';
import { checkEventTypes } from './checkEventTypes.ts';
import type { WebhookEndpointRecord } from './webhookEndpointRepository.ts';
import { newWebhookSecret } from './webhookSecret.ts';

/**
 * The endpoint, its secret and its audit event in one commit; then its delivery starts (now, or at the reconciler's
 * next sweep). The url obeys the audit streams' address rule; the secret is answered this once.
 */
export async function createWebhookEndpoint(
  { stores, effects }: RegistryContext,
  input: WebhookEndpointCreate,
  targets: StreamTargets,
  meta: RequestMeta,
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  await checkStreamTarget(input.url, targets);
  const types = checkEventTypes(input.types);
  if (input.tenant_id !== undefined && !(await stores.tenants.find({ by: 'id', id: input.tenant_id }))) throw notFound('tenant');
  const id = randomUUID();
  const secret = newWebhookSecret();
  const endpoint = await stores.webhookEndpoints.create(
    { id, url: input.url, types, tenantId: input.tenant_id ?? null, secret },
    {
      action: 'webhook_endpoint.created',
      target_id: id,
      target_type: 'webhook_endpoint',
      target_name: new URL(input.url).host,
      metadata: { url: input.url, types, ...(input.tenant_id === undefined ? {} : { tenant_id: input.tenant_id }) },
    },
    meta,
  );
  await effects.webhookEndpointChanged(endpoint);
  return { endpoint, secret };
}
