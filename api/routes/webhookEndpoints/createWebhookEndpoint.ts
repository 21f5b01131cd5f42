import { ErrorBody } from '../../../domain/schemas/common.ts';
import { WebhookEndpointCreate, WebhookEndpointWithSecret } from '../../../domain/schemas/webhookEndpoint.ts';
import { createWebhookEndpoint } from '../../../domain/webhooks/createWebhookEndpoint.ts';
import { toWebhookEndpoint } from '../../../domain/webhooks/webhookEndpointResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

const byId = { id: '$response.body#/id' };

export const createWebhookEndpointRoute = defineRoute({
  method: 'post',
  path: '/v1/webhook-endpoints',
  operationId: 'createWebhookEndpoint',
  access: 'events:write',
  acrossTenants: 'subscribe to the events of every tenant',
  summary:
    "Subscribe url to the events of the given types (of one tenant, with tenant_id) appended from now on: each one POSTed as a CloudEvent, at least once, in sequence order, signed as Standard Webhooks sign (webhook-id, webhook-timestamp, webhook-signature) with the whsec_ secret answered this once; a failing receiver is retried with backoff for 3 days, then the endpoint is disabled",
  tags: ['events'],
  extension: true,
  body: WebhookEndpointCreate,
  responses: {
    201: {
      description: 'the endpoint and its secret (never shown again)',
      schema: WebhookEndpointWithSecret,
      links: {
        getWebhookEndpoint: { operationId: 'getWebhookEndpoint', parameters: byId },
        updateWebhookEndpoint: { operationId: 'updateWebhookEndpoint', parameters: byId },
        deleteWebhookEndpoint: { operationId: 'deleteWebhookEndpoint', parameters: byId },
        rotateWebhookSecret: { operationId: 'rotateWebhookSecret', parameters: byId },
        replayWebhookEndpoint: { operationId: 'replayWebhookEndpoint', parameters: byId },
      },
    },
    400: {
      description:
        'invalid input, a type not in the catalog, or a host not allowed: with AUDIT_STREAM_ALLOWED_HOSTS one it does not name; without it a host that is, or resolves to, a loopback, private, link-local, shared, reserved, multicast or cloud metadata address, or does not resolve',
      schema: ErrorBody,
    },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ body }, { meta, deps }) => {
    const { endpoint, secret } = await createWebhookEndpoint(deps, body, deps.streamTargets, meta);
    return { status: 201, body: { ...toWebhookEndpoint(endpoint), secret } };
  },
});
