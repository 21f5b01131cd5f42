import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { SAML_METADATA_BODY_LIMIT_BYTES, SsoConnection, SsoConnectionPatch } from '../../../domain/schemas/ssoConnections.ts';
import { updateSsoConnection } from '../../../domain/sso/updateSsoConnection.ts';
import { toSsoConnection } from '../../../domain/sso/ssoConnectionResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const updateSsoConnectionRoute = defineRoute({
  method: 'patch',
  path: '/v1/sso-connections/{id}',
  operationId: 'updateSsoConnection',
  bodyLimitBytes: SAML_METADATA_BODY_LIMIT_BYTES,
  access: 'members:write',
  summary: "Change a connection's client_secret (OIDC), its metadata_xml or metadata_url (SAML: new metadata, checked as at creation), its domains (verified domains of the tenant: 409 otherwise) or state (inactive: its identity provider is disabled); another protocol's field is 400",
  tags: ['sso'],
  extension: true,
  params: IdParams,
  body: SsoConnectionPatch,
  bodyRequired: true,
  responses: {
    200: { description: 'the connection', schema: SsoConnection },
    400: { description: "invalid input, another protocol's field, or SAML metadata refused", schema: ErrorBody },
    404: { description: 'no such connection', schema: ErrorBody },
    409: { description: 'a domain that is not a verified domain of the tenant', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps, caller }) => ({ status: 200, body: toSsoConnection(await updateSsoConnection(deps, params.id, body, meta, caller.reach), deps.ssoServiceProvider) }),
});
