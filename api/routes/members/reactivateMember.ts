import { ErrorBody } from '../../../domain/schemas/common.ts';
import { Member, MemberParams } from '../../../domain/schemas/members.ts';
import { toMember } from '../../../domain/members/memberResponse.ts';
import { reactivateMember } from '../../../domain/members/reactivateMember.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const reactivateMemberRoute = defineRoute({
  method: 'post',
  path: '/v1/tenants/{id}/members/{user_id}/reactivate',
  operationId: 'reactivateMember',
  access: 'members:write',
  tenantIn: 'params.id',
  summary: 'Make an inactive member active again; an active or pending one is answered as it is',
  tags: ['members'],
  extension: true,
  params: MemberParams,
  responses: {
    200: { description: 'the member', schema: Member },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'not a member (or no such tenant)', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps }) => ({ status: 200, body: toMember(await reactivateMember(deps, params.id, params.user_id, meta)) }),
});
