import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { deleteWebhookEndpoint } from '../../../domain/webhooks/deleteWebhookEndpoint.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const deleteWebhookEndpointRoute = defineRoute({
  method: 'delete',
  path: '/v1/webhook-endpoints/{id}',
  operationId: 'deleteWebhookEndpoint',
  access: 'events:write',
  acrossTenants: 'delete a webhook endpoint',
  summary: 'Delete a webhook endpoint: its delivery stops',
  tags: ['events'],
  extension: true,
  params: IdParams,
  responses: { 204: { description: 'deleted' }, 400: { description: 'invalid id', schema: ErrorBody }, 404: { description: 'no such endpoint', schema: ErrorBody } },
  handler: async ({ params }, { meta, deps }) => {
    await deleteWebhookEndpoint(deps, params.id, meta);
    return { status: 204 };
  },
});
