import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { WebhookEndpoint, WebhookReplay } from '../../../domain/schemas/webhookEndpoint.ts';
import { replayWebhookEndpoint } from '../../../domain/webhooks/replayWebhookEndpoint.ts';
import { toWebhookEndpoint } from '../../../domain/webhooks/webhookEndpointResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const replayWebhookEndpointRoute = defineRoute({
  method: 'post',
  path: '/v1/webhook-endpoints/{id}/replay',
  operationId: 'replayWebhookEndpoint',
  access: 'events:write',
  acrossTenants: 'replay a webhook endpoint',
  summary:
    'Deliver again, in order, every matching event from from_sequence on (each with the webhook-id it had, so a receiver tells a repeat by it); a disabled endpoint keeps the request and carries it out once enabled',
  tags: ['events'],
  extension: true,
  params: IdParams,
  body: WebhookReplay,
  responses: {
    202: { description: 'accepted: delivery moves back to from_sequence', schema: WebhookEndpoint },
    400: { description: 'invalid input, or a sequence beyond 2^53 - 1', schema: ErrorBody },
    404: { description: 'no such endpoint', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => ({ status: 202, body: toWebhookEndpoint(await replayWebhookEndpoint(deps, params.id, body.from_sequence, meta)) }),
});
