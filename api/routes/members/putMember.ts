import { ErrorBody } from '../../../domain/schemas/common.ts';
import { Member, MemberParams, MemberPut } from '../../../domain/schemas/members.ts';
import { toMember } from '../../../domain/members/memberResponse.ts';
import { putMember } from '../../../domain/members/putMember.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const putMemberRoute = defineRoute({
  method: 'put',
  path: '/v1/tenants/{id}/members/{user_id}',
  operationId: 'putMember',
  access: 'members:write',
  tenantIn: 'params.id',
  summary:
    "Make an identity-provider user a member of the tenant with these roles (201; its e-mail and name from the provider, active), or replace a member's roles (200). Every role must be the tenant's or a shared one (400); taking IT_ADMIN from the tenant's last active one is 409",
  tags: ['members'],
  extension: true,
  params: MemberParams,
  body: MemberPut,
  responses: {
    200: { description: 'the member, its roles replaced (or unchanged)', schema: Member },
    201: { description: 'the new member', schema: Member },
    400: { description: 'invalid input, or a role the tenant does not have', schema: ErrorBody },
    404: { description: 'no such tenant, or the identity provider has no such user', schema: ErrorBody },
    409: { description: "the change would take the tenant's last active IT_ADMIN away", schema: ErrorBody },
    503: { description: 'the identity provider could not be asked for the user', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => {
    const { member, created } = await putMember(deps, params.id, params.user_id, body, meta);
    return { status: created ? 201 : 200, body: toMember(member) };
  },
});
