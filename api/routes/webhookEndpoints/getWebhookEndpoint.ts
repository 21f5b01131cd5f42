import { notFound } from '../../../domain/errors.ts';
import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { WebhookEndpoint } from '../../../domain/schemas/webhookEndpoint.ts';
import { toWebhookEndpoint } from '../../../domain/webhooks/webhookEndpointResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const getWebhookEndpointRoute = defineRoute({
  method: 'get',
  path: '/v1/webhook-endpoints/{id}',
  operationId: 'getWebhookEndpoint',
  access: 'events:write',
  acrossTenants: 'read a webhook endpoint',
  summary: 'A webhook endpoint (never its secret), with its state and where its delivery stands',
  tags: ['events'],
  extension: true,
  params: IdParams,
  responses: { 200: { description: 'the endpoint', schema: WebhookEndpoint }, 400: { description: 'invalid id', schema: ErrorBody }, 404: { description: 'no such endpoint', schema: ErrorBody } },
  handler: async ({ params }, { deps }) => {
    const endpoint = await deps.stores.webhookEndpoints.find(params.id);
    if (!endpoint) throw notFound('webhook endpoint');
    return { status: 200, body: toWebhookEndpoint(endpoint) };
  },
});
