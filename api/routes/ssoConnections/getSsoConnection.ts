import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { SsoConnection } from '../../../domain/schemas/ssoConnections.ts';
import { getSsoConnection } from '../../../domain/sso/updateSsoConnection.ts';
import { toSsoConnection } from '../../../domain/sso/ssoConnectionResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const getSsoConnectionRoute = defineRoute({
  method: 'get',
  path: '/v1/sso-connections/{id}',
  operationId: 'getSsoConnection',
  access: 'members:read',
  summary: 'One SSO connection (never a secret), with its `sp`: what to enter at the identity provider',
  tags: ['sso'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the connection', schema: SsoConnection },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such connection', schema: ErrorBody },
  },
  handler: async ({ params }, { deps, caller }) => ({ status: 200, body: toSsoConnection(await getSsoConnection(deps, params.id, caller.reach), deps.ssoServiceProvider) }),
});
