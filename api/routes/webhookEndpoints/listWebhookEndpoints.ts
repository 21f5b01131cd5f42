import { WebhookEndpointList } from '../../../domain/schemas/webhookEndpoint.ts';
import { toWebhookEndpoint } from '../../../domain/webhooks/webhookEndpointResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listWebhookEndpointsRoute = defineRoute({
  method: 'get',
  path: '/v1/webhook-endpoints',
  operationId: 'listWebhookEndpoints',
  access: 'events:write',
  acrossTenants: 'list the webhook endpoints of every tenant',
  summary: 'List the webhook endpoints (never their secrets), oldest first, each with its state and where its delivery stands',
  tags: ['events'],
  extension: true,
  responses: { 200: { description: 'endpoints', schema: WebhookEndpointList } },
  handler: async (_input, { deps }) => ({ status: 200, body: { items: (await deps.stores.webhookEndpoints.list()).map(toWebhookEndpoint) } }),
});
