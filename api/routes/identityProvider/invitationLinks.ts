import { z } from 'zod';
import { ErrorBody, IdpUserId, Uuid } from '../../../domain/schemas/common.ts';
import { Invitation } from '../../../domain/schemas/invitations.ts';
import { acceptInvitationLink, invitationLinkOpens } from '../../../domain/invitations/acceptInvitation.ts';
import { toInvitation } from '../../../domain/invitations/invitationResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

const InvitationLink = z
  .strictObject({
    invitation_id: Uuid,
    nonce: z.string().min(1).max(200).meta({ description: 'the secret the link was made with' }),
    user_id: IdpUserId.optional(),
  })
  .meta({ id: 'InvitationLink' });
const AcceptedInvitationLink = InvitationLink.extend({ user_id: IdpUserId }).meta({ id: 'AcceptedInvitationLink' });
const LinkVerdict = z.object({ open: z.boolean() }).meta({ id: 'InvitationLinkVerdict' });

/** The project's Keycloak extension asks, each time an invitation's link is opened, whether it still opens it. */
export const checkInvitationLinkRoute = defineRoute({
  method: 'post',
  path: '/v1/internal/idp/invitations/link',
  operationId: 'checkInvitationLink',
  access: 'claims:read',
  summary:
    "The identity provider's check of an invitation's link: open only while it is the pending invitation's current one (not superseded by a resend, revoked, expired or used), for the user it was sent to",
  tags: ['identity provider'],
  extension: true,
  body: InvitationLink,
  bodyRequired: true,
  responses: {
    200: { description: 'whether the link opens its invitation now', schema: LinkVerdict },
    400: { description: 'invalid input', schema: ErrorBody },
  },
  handler: async ({ body }, { deps, caller }) => ({
    status: 200,
    body: { open: await invitationLinkOpens(deps, body.invitation_id, body.nonce, body.user_id, caller.reach) },
  }),
});

/** The project's Keycloak extension reports that the invited user completed the link's actions. */
export const acceptInvitationLinkRoute = defineRoute({
  method: 'post',
  path: '/v1/internal/idp/invitations/accepted',
  operationId: 'acceptInvitationLink',
  access: 'claims:read',
  summary: "The identity provider's report that the invited user completed its invitation's link: the invitation is accepted and its member active",
  tags: ['identity provider'],
  extension: true,
  body: AcceptedInvitationLink,
  bodyRequired: true,
  responses: {
    200: { description: 'the invitation, accepted', schema: Invitation },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'the link does not open its invitation (superseded, revoked, expired, used, or another user)', schema: ErrorBody },
  },
  handler: async ({ body }, { deps, caller }) => ({
    status: 200,
    body: toInvitation(await acceptInvitationLink(deps, body.invitation_id, body.nonce, body.user_id, caller.reach)),
  }),
});
