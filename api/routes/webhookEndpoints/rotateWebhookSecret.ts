import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { WebhookSecretRotated } from '../../../domain/schemas/webhookEndpoint.ts';
import { isoTimestamp } from '../../../domain/isoTimestamp.ts';
import { rotateWebhookSecret } from '../../../domain/webhooks/rotateWebhookSecret.ts';
import { toWebhookEndpoint } from '../../../domain/webhooks/webhookEndpointResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const rotateWebhookSecretRoute = defineRoute({
  method: 'post',
  path: '/v1/webhook-endpoints/{id}/rotate-secret',
  operationId: 'rotateWebhookSecret',
  access: 'events:write',
  acrossTenants: 'rotate a webhook endpoint secret',
  summary:
    'A new whsec_ secret, answered this once; for 24 hours every delivery is signed with both the new and the previous secret (two signatures in webhook-signature), then with the new one only',
  tags: ['events'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the endpoint, its new secret, and until when the previous one signs too', schema: WebhookSecretRotated },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such endpoint', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps }) => {
    const { endpoint, secret, previousSecretUntil } = await rotateWebhookSecret(deps, params.id, meta);
    return { status: 200, body: { ...toWebhookEndpoint(endpoint), secret, previous_secret_expires_at: isoTimestamp(previousSecretUntil) } };
  },
});
