import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Invitation } from '../../../domain/schemas/invitations.ts';
import { getInvitation } from '../../../domain/invitations/getInvitation.ts';
import { toInvitation } from '../../../domain/invitations/invitationResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const getInvitationRoute = defineRoute({
  method: 'get',
  path: '/v1/invitations/{id}',
  operationId: 'getInvitation',
  access: 'members:read',
  summary: 'One invitation, in whatever state it is',
  tags: ['invitations'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the invitation', schema: Invitation },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such invitation', schema: ErrorBody },
  },
  handler: async ({ params }, { deps, caller }) => ({ status: 200, body: toInvitation(await getInvitation(deps, params.id, caller.reach)) }),
});
