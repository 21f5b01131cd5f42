import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Invitation } from '../../../domain/schemas/invitations.ts';
import { revokeInvitation } from '../../../domain/invitations/revokeInvitation.ts';
import { toInvitation } from '../../../domain/invitations/invitationResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const revokeInvitationRoute = defineRoute({
  method: 'post',
  path: '/v1/invitations/{id}/revoke',
  operationId: 'revokeInvitation',
  access: 'members:write',
  summary: 'Revoke an invitation: its link stops working and its pending member is removed (a revoked one is answered as it is; an accepted one is 409)',
  tags: ['invitations'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the invitation, revoked', schema: Invitation },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such invitation', schema: ErrorBody },
    409: { description: 'the invitation was accepted', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps, caller }) => ({ status: 200, body: toInvitation(await revokeInvitation(deps, params.id, meta, caller.reach)) }),
});
