import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { deleteSsoConnection } from '../../../domain/sso/updateSsoConnection.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const deleteSsoConnectionRoute = defineRoute({
  method: 'delete',
  path: '/v1/sso-connections/{id}',
  operationId: 'deleteSsoConnection',
  access: 'members:write',
  summary: 'Delete a connection: its identity provider leaves the identity provider',
  tags: ['sso'],
  extension: true,
  params: IdParams,
  responses: {
    204: { description: 'deleted' },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such connection', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps, caller }) => {
    await deleteSsoConnection(deps, params.id, meta, caller.reach);
    return { status: 204 };
  },
});
