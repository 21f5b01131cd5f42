import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { InvitationList, InvitationListQuery } from '../../../domain/schemas/invitations.ts';
import { listInvitations } from '../../../domain/invitations/listInvitations.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listInvitationsRoute = defineRoute({
  method: 'get',
  path: '/v1/tenants/{id}/invitations',
  operationId: 'listInvitations',
  access: 'members:read',
  tenantIn: 'params.id',
  summary: "List a tenant's invitations newest first, by state and e-mail, in pages (limit 1–500, default 50; cursor)",
  tags: ['invitations'],
  extension: true,
  params: IdParams,
  query: InvitationListQuery,
  responses: {
    200: { description: 'a page of invitations', schema: InvitationList },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ params, query }, { deps }) => ({ status: 200, jsonText: await listInvitations(deps, params.id, query) }),
});
