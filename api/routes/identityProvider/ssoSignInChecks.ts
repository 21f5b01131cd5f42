import { z } from 'zod';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { checkSsoSignIn } from '../../../domain/sso/admitSsoEmail.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

const SsoSignInCheck = z
  .strictObject({
    idp_alias: z.string().min(1).max(255).meta({ description: 'the identity provider the user is signing in through, whatever its protocol' }),
    // Any text: what the provider asserts is judged (and a refusal audited) by the rule, not turned away as input.
    email: z.string().max(320).optional().meta({ description: 'the e-mail the identity provider asserts; none is refused' }),
  })
  .meta({ id: 'SsoSignInCheck' });

const SsoSignInAllowed = z
  .strictObject({
    allowed: z.literal(true),
    tenant_connection: z.boolean().meta({
      description: "whether the alias is a tenant's SSO connection in the registry's record; false: it never was one, and the identity provider's own flow decides",
    }),
    email_domain: z.string().optional().meta({ description: "the e-mail's domain, one of the connection's verified domains (a tenant's connection only)" }),
  })
  .meta({ id: 'SsoSignInAllowed' });

/**
 * The project's Keycloak extension asks this before every brokered sign-in its flows run makes, links or signs in an
 * account: the registry, not the alias, says whether the identity provider is a tenant's connection.
 */
export const checkSsoSignInRoute = defineRoute({
  method: 'post',
  path: '/v1/internal/idp/sso-sign-in-checks',
  operationId: 'checkSsoSignIn',
  access: 'claims:read',
  summary:
    "Whether the identity provider may go on with a sign-in through one of its identity providers: a tenant's SSO connection (by the registry's record of their aliases, any protocol) only for an e-mail at one of the connection's verified domains while it is active (200); any other, and any sign-in through a deleted connection's alias, is refused (403) and audited as sso.sign_in_refused in the tenant's log, with the e-mail's domain, never the address. An alias that was never a connection is no tenant's (200, tenant_connection false)",
  tags: ['identity provider'],
  extension: true,
  body: SsoSignInCheck,
  bodyRequired: true,
  responses: {
    200: { description: "the e-mail is at one of the connection's verified domains, or the alias is no tenant's connection", schema: SsoSignInAllowed },
    400: { description: 'invalid input', schema: ErrorBody },
    403: { description: "the e-mail is not at one of the connection's verified domains, or the connection is inactive or deleted: refused and audited", schema: ErrorBody },
    404: { description: "the connection is of a tenant the caller's token is not bound to", schema: ErrorBody },
  },
  handler: async ({ body }, { deps, caller, meta }) => {
    const verdict = await checkSsoSignIn(deps, body.idp_alias, body.email, caller.reach, meta);
    return {
      status: 200,
      body: verdict.tenantConnection ? { allowed: true as const, tenant_connection: true, email_domain: verdict.emailDomain } : { allowed: true as const, tenant_connection: false },
    };
  },
});
