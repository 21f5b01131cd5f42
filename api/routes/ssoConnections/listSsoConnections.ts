import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { SsoConnectionList } from '../../../domain/schemas/ssoConnections.ts';
import { listSsoConnections } from '../../../domain/sso/updateSsoConnection.ts';
import { toSsoConnection } from '../../../domain/sso/ssoConnectionResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listSsoConnectionsRoute = defineRoute({
  method: 'get',
  path: '/v1/tenants/{id}/sso-connections',
  operationId: 'listSsoConnections',
  access: 'members:read',
  tenantIn: 'params.id',
  summary: "The tenant's SSO connections, oldest first (never their secrets)",
  tags: ['sso'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the connections', schema: SsoConnectionList },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ params }, { deps }) => ({ status: 200, body: { items: (await listSsoConnections(deps, params.id)).map((c) => toSsoConnection(c, deps.ssoServiceProvider)) } }),
});
