import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { InvitationSent } from '../../../domain/schemas/invitations.ts';
import { resendInvitation } from '../../../domain/invitations/resendInvitation.ts';
import { toInvitationSent } from '../../../domain/invitations/invitationResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const resendInvitationRoute = defineRoute({
  method: 'post',
  path: '/v1/invitations/{id}/resend',
  operationId: 'resendInvitation',
  access: 'members:write',
  summary:
    'Send a pending or expired invitation again with a new link (the previous one stops working at once) and its expiry started again; at most 3 sends in 10 minutes (429 with Retry-After)',
  tags: ['invitations'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the invitation, pending, with its new link when the identity provider answered in time', schema: InvitationSent },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such invitation', schema: ErrorBody },
    409: {
      description:
        'the invitation is accepted or revoked; or `limit_reached`: the tenant made TENANT_INVITATIONS_SENT_PER_HOUR_LIMIT sends in the last hour (limit `invitations_sent_per_hour`), or, an expired invitation, holds TENANT_PENDING_INVITATIONS_LIMIT pending ones (limit `pending_invitations`)',
      schema: ErrorBody,
    },
    429: { description: 'sent 3 times in the last 10 minutes; Retry-After says when the next send is allowed', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps, caller }) => {
    const { invitation, inviteUrl } = await resendInvitation(deps, params.id, meta, caller.reach);
    return { status: 200, body: toInvitationSent(invitation, inviteUrl) };
  },
});
