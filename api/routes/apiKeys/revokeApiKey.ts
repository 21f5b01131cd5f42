import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { revokeApiKey } from '../../../domain/apiKeys/revokeApiKey.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const revokeApiKeyRoute = defineRoute({
  method: 'delete',
  path: '/v1/api-keys/{id}',
  operationId: 'revokeApiKey',
  access: 'tenants:write',
  summary: 'Revoke an API key (sets revoked_at; idempotent)',
  tags: ['api-keys'],
  params: IdParams,
  responses: {
    204: { description: 'revoked' },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such key', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps, caller }) => {
    await revokeApiKey(deps, params.id, meta, caller.reach);
    return { status: 204 };
  },
});
