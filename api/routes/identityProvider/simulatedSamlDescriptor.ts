import { z } from 'zod';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { notFound } from '../../../domain/errors.ts';
import { SAML_METADATA_MEDIA_TYPE, serviceProviderMetadataXml } from '../../../domain/sso/serviceProviderMetadata.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

const AliasParams = z.object({ alias: z.string().regex(/^sso-[0-9a-f-]{36}$/, 'must be an SSO connection alias (sso-<id>)') });

/** With the simulated provider, a SAML connection's `sp.metadata_url` answers here, as Keycloak's broker descriptor answers there. */
export const simulatedSamlDescriptorRoute = defineRoute({
  method: 'get',
  path: '/idp-sim/broker/{alias}/endpoint/descriptor',
  operationId: 'simulatedSamlDescriptor',
  access: 'public',
  summary: "Simulated identity provider only: a SAML connection's service provider metadata (its sp.entity_id and sp.acs_url), for the customer's identity provider to import",
  tags: ['identity provider'],
  extension: true,
  params: AliasParams,
  responses: {
    200: { description: 'the SP metadata (an EntityDescriptor with an SPSSODescriptor)', schema: z.string(), contentTypes: [SAML_METADATA_MEDIA_TYPE] },
    400: { description: 'invalid alias', schema: ErrorBody },
    404: { description: 'no SAML identity provider of that alias, or the simulated provider is not in use', schema: ErrorBody },
  },
  handler: async ({ params }, { deps }) => {
    if (!(deps.identityProvider instanceof SimulatedIdentityProvider)) throw notFound('route');
    const sp = await deps.identityProvider.samlServiceProvider(params.alias);
    if (!sp) throw notFound('SAML identity provider');
    return { status: 200, headers: { 'content-type': `${SAML_METADATA_MEDIA_TYPE}; charset=utf-8` }, body: serviceProviderMetadataXml(sp) };
  },
});
