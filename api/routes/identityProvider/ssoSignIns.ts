import { z } from 'zod';
import { EmailAddress, ErrorBody, IdpUserId } from '../../../domain/schemas/common.ts';
import { Member } from '../../../domain/schemas/members.ts';
import { recordSsoSignIn } from '../../../domain/sso/recordSsoSignIn.ts';
import { toMember } from '../../../domain/members/memberResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

const SsoSignIn = z
  .strictObject({
    user_id: IdpUserId,
    idp_alias: z.string().min(1).max(255).meta({ description: "the identity provider the user signed in through (an SSO connection's idp_alias)" }),
    email: EmailAddress.optional(),
    name: z.string().max(255).optional(),
  })
  .meta({ id: 'SsoSignIn' });

/** The project's Keycloak extension reports each sign-in through an SSO connection's identity provider. */
export const recordSsoSignInRoute = defineRoute({
  method: 'post',
  path: '/v1/internal/idp/sso-sign-ins',
  operationId: 'recordSsoSignIn',
  access: 'claims:read',
  summary:
    "The identity provider's report of a sign-in through a tenant's SSO connection: a user that is no member becomes an active one with the tenant's default role, source sso (201); a member is answered as it is (200). Only for an account whose e-mail is at one of the connection's verified domains (403 and sso.sign_in_refused otherwise)",
  tags: ['identity provider'],
  extension: true,
  body: SsoSignIn,
  bodyRequired: true,
  responses: {
    200: { description: 'the member, as it was', schema: Member },
    201: { description: 'the new member', schema: Member },
    400: { description: 'invalid input', schema: ErrorBody },
    403: { description: "the account's e-mail is not at one of the connection's verified domains, or the connection is inactive: refused and audited", schema: ErrorBody },
    404: { description: 'no SSO connection has that identity provider alias', schema: ErrorBody },
  },
  handler: async ({ body }, { deps, caller, meta }) => {
    const user = { userId: body.user_id, email: body.email?.toLowerCase() ?? '', name: body.name ?? '' };
    const { member, created } = await recordSsoSignIn(deps, body.idp_alias, user, caller.reach, meta);
    return { status: created ? 201 : 200, body: toMember(member) };
  },
});
