import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { InvitationCreate, InvitationSent } from '../../../domain/schemas/invitations.ts';
import { createInvitation } from '../../../domain/invitations/createInvitation.ts';
import { toInvitationSent } from '../../../domain/invitations/invitationResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const createInvitationRoute = defineRoute({
  method: 'post',
  path: '/v1/tenants/{id}/invitations',
  operationId: 'createInvitation',
  access: 'members:write',
  tenantIn: 'params.id',
  summary:
    "Invite an e-mail address to the tenant with roles (default MEMBER) for 1–30 days (default 7): the tenant's actor makes or finds the user, makes it a pending member and sends the invite; 201 with invite_url when the link came within PROVISIONING_WAIT_MS. A pending invitation of the same address is answered again (200, nothing sent); an address that is a member already is 409",
  tags: ['invitations'],
  extension: true,
  params: IdParams,
  body: InvitationCreate,
  bodyRequired: true,
  responses: {
    200: { description: 'the pending invitation of this address, answered again (nothing sent, no link)', schema: InvitationSent },
    201: { description: 'the new invitation, with its link when the identity provider answered in time', schema: InvitationSent },
    400: { description: 'invalid input, or a role the tenant does not have', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
    409: {
      description:
        'the address is already a member of the tenant; or `limit_reached`: the tenant holds TENANT_PENDING_INVITATIONS_LIMIT pending invitations (limit `pending_invitations`) or made TENANT_INVITATIONS_SENT_PER_HOUR_LIMIT sends in the last hour (limit `invitations_sent_per_hour`)',
      schema: ErrorBody,
    },
  },
  handler: async ({ params, body }, { meta, deps }) => {
    const { invitation, created, inviteUrl } = await createInvitation(deps, params.id, body, meta);
    return { status: created ? 201 : 200, body: toInvitationSent(invitation, inviteUrl) };
  },
});
