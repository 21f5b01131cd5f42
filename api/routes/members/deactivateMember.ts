import { ErrorBody } from '../../../domain/schemas/common.ts';
import { Member, MemberParams } from '../../../domain/schemas/members.ts';
import { deactivateMember } from '../../../domain/members/deactivateMember.ts';
import { toMember } from '../../../domain/members/memberResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const deactivateMemberRoute = defineRoute({
  method: 'post',
  path: '/v1/tenants/{id}/members/{user_id}/deactivate',
  operationId: 'deactivateMember',
  access: 'members:write',
  tenantIn: 'params.id',
  summary:
    "Deactivate a member: it keeps its record and roles, its tokens for the tenant carry none, and it leaves the tenant's organization in the identity provider until reactivated. Already inactive: answered as it is",
  tags: ['members'],
  extension: true,
  params: MemberParams,
  responses: {
    200: { description: 'the member', schema: Member },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'not a member (or no such tenant)', schema: ErrorBody },
    409: { description: "the member is the tenant's last active IT_ADMIN", schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps }) => ({ status: 200, body: toMember(await deactivateMember(deps, params.id, params.user_id, meta)) }),
});
