import { ErrorBody } from '../../../domain/schemas/common.ts';
import { MemberParams } from '../../../domain/schemas/members.ts';
import { removeMember } from '../../../domain/members/removeMember.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const removeMemberRoute = defineRoute({
  method: 'delete',
  path: '/v1/tenants/{id}/members/{user_id}',
  operationId: 'removeMember',
  access: 'members:write',
  tenantIn: 'params.id',
  summary: "Remove a member: its record goes, and its membership in the tenant's organization in the identity provider with it",
  tags: ['members'],
  extension: true,
  params: MemberParams,
  responses: {
    204: { description: 'removed' },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'not a member (or no such tenant)', schema: ErrorBody },
    409: { description: "the member is the last active IT_ADMIN of a tenant that has other members", schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps }) => {
    await removeMember(deps, params.id, params.user_id, meta);
    return { status: 204 };
  },
});
