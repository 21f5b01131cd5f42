import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { SAML_METADATA_BODY_LIMIT_BYTES, SsoConnection, SsoConnectionCreate } from '../../../domain/schemas/ssoConnections.ts';
import { createSsoConnection } from '../../../domain/sso/createSsoConnection.ts';
import { toSsoConnection } from '../../../domain/sso/ssoConnectionResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const createSsoConnectionRoute = defineRoute({
  method: 'post',
  path: '/v1/tenants/{id}/sso-connections',
  operationId: 'createSsoConnection',
  bodyLimitBytes: SAML_METADATA_BODY_LIMIT_BYTES,
  access: 'members:write',
  tenantIn: 'params.id',
  summary:
    "Connect the tenant to its own identity provider. OIDC: the issuer's discovery document must answer (400 otherwise; its host allowed by SSO_ISSUER_ALLOWED_HOSTS or public). SAML (`protocol: saml`): from its metadata as XML or as a URL (held to the same address rule, read again every SSO_METADATA_REFRESH_HOURS); 400 for metadata that does not parse, names no signing certificate, or carries a DOCTYPE or entity. The domains must be verified domains of the tenant (409). The answer's `sp` is what to enter at the identity provider. The tenant's actor makes it an identity provider of the tenant's organization, to which users at those domains are sent at login",
  tags: ['sso'],
  extension: true,
  params: IdParams,
  body: SsoConnectionCreate,
  bodyRequired: true,
  responses: {
    201: {
      description: 'the connection (never a secret), with its `sp`',
      schema: SsoConnection,
      links: {
        getSsoConnection: { operationId: 'getSsoConnection', parameters: { id: '$response.body#/id' } },
        deleteSsoConnection: { operationId: 'deleteSsoConnection', parameters: { id: '$response.body#/id' } },
      },
    },
    400: { description: "invalid input; the issuer's discovery document did not answer; SAML metadata refused or its URL not read", schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
    409: { description: 'a domain that is not a verified domain of the tenant; or `limit_reached` (limit `sso_connections`): the tenant holds TENANT_SSO_CONNECTIONS_LIMIT connections', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => ({ status: 201, body: toSsoConnection(await createSsoConnection(deps, params.id, body, meta), deps.ssoServiceProvider) }),
});
