import { sequenceOf } from '../events/cloudEvent.ts';
import { isoTimestamp } from '../isoTimestamp.ts';
import type { WebhookEndpoint } from '../schemas/webhookEndpoint.ts';
import type { WebhookEndpointRecord } from './webhookEndpointRepository.ts';

/** Never a secret. */
export const toWebhookEndpoint = (e: WebhookEndpointRecord): WebhookEndpoint => ({
  id: e.id,
  url: e.url,
  types: e.types,
  ...(e.tenantId === null ? {} : { tenant_id: e.tenantId }),
  state: e.state,
  last_delivered_sequence: sequenceOf(e.lastDeliveredSequence),
  created_at: isoTimestamp(e.createdAt),
});
