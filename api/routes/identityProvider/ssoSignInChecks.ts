import { z } from 'zod';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { checkSsoSignIn } from '../../../domain/sso/admitSsoEmail.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

const SsoSignInCheck = z
  .strictObject({
    idp_alias: z.string().min(1).max(255).meta({ description: "the identity provider the user is signing in through (an SSO connection's idp_alias)" }),
    // Any text: what the provider asserts is judged (and a refusal audited) by the rule, not turned away as input.
    email: z.string().max(320).optional().meta({ description: 'the e-mail the identity provider asserts; none is refused' }),
  })
  .meta({ id: 'SsoSignInCheck' });

const SsoSignInAllowed = z
  .strictObject({ allowed: z.literal(true), email_domain: z.string() })
  .meta({ id: 'SsoSignInAllowed' });

/** The project's Keycloak extension asks this before a first sign-in through a connection makes or links an account. */
export const checkSsoSignInRoute = defineRoute({
  method: 'post',
  path: '/v1/internal/idp/sso-sign-in-checks',
  operationId: 'checkSsoSignIn',
  access: 'claims:read',
  summary:
    "Whether the identity provider may believe a sign-in through a tenant's SSO connection for this e-mail: only at one of the connection's verified domains while it is active (200); any other is refused (403) and audited as sso.sign_in_refused in the tenant's log, with the e-mail's domain, never the address",
  tags: ['identity provider'],
  extension: true,
  body: SsoSignInCheck,
  bodyRequired: true,
  responses: {
    200: { description: 'the e-mail is at one of the connection\'s verified domains', schema: SsoSignInAllowed },
    400: { description: 'invalid input', schema: ErrorBody },
    403: { description: "the e-mail is not at one of the connection's verified domains, or the connection is inactive: refused and audited", schema: ErrorBody },
    404: { description: 'no SSO connection has that identity provider alias', schema: ErrorBody },
  },
  handler: async ({ body }, { deps, caller, meta }) => {
    const emailDomain = await checkSsoSignIn(deps, body.idp_alias, body.email, caller.reach, meta);
    return { status: 200, body: { allowed: true as const, email_domain: emailDomain } };
  },
});
