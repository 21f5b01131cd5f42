import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { WebhookEndpoint, WebhookEndpointChange } from '../../../domain/schemas/webhookEndpoint.ts';
import { changeWebhookEndpoint } from '../../../domain/webhooks/changeWebhookEndpoint.ts';
import { toWebhookEndpoint } from '../../../domain/webhooks/webhookEndpointResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const updateWebhookEndpointRoute = defineRoute({
  method: 'patch',
  path: '/v1/webhook-endpoints/{id}',
  operationId: 'updateWebhookEndpoint',
  access: 'events:write',
  acrossTenants: 'change a webhook endpoint',
  summary:
    'Change the url (under the address rule), the types, or the state: disabled stops delivery; active resumes a disabled endpoint where its delivery stood, and retries a failing one at once',
  tags: ['events'],
  extension: true,
  params: IdParams,
  body: WebhookEndpointChange,
  responses: {
    200: { description: 'the endpoint', schema: WebhookEndpoint },
    400: { description: 'invalid input, a type not in the catalog, or a host not allowed (as on creation)', schema: ErrorBody },
    404: { description: 'no such endpoint', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => ({ status: 200, body: toWebhookEndpoint(await changeWebhookEndpoint(deps, params.id, body, deps.streamTargets, meta)) }),
});
