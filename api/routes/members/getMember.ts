import { ErrorBody } from '../../../domain/schemas/common.ts';
import { Member, MemberParams } from '../../../domain/schemas/members.ts';
import { getMember } from '../../../domain/members/getMember.ts';
import { toMember } from '../../../domain/members/memberResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const getMemberRoute = defineRoute({
  method: 'get',
  path: '/v1/tenants/{id}/members/{user_id}',
  operationId: 'getMember',
  access: 'members:read',
  tenantIn: 'params.id',
  summary: 'A member of the tenant, with its roles and the permissions they grant',
  tags: ['members'],
  extension: true,
  params: MemberParams,
  responses: {
    200: { description: 'the member', schema: Member },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'not a member (or no such tenant)', schema: ErrorBody },
  },
  handler: async ({ params }, { deps }) => ({ status: 200, body: toMember(await getMember(deps, params.id, params.user_id)) }),
});
