import { ErrorBody } from '../../../domain/schemas/common.ts';
import { BreakGlassPut, Member, MemberParams } from '../../../domain/schemas/members.ts';
import { setBreakGlass } from '../../../domain/members/setBreakGlass.ts';
import { toMember } from '../../../domain/members/memberResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const setBreakGlassRoute = defineRoute({
  method: 'put',
  path: '/v1/tenants/{id}/members/{user_id}/break-glass',
  operationId: 'setMemberBreakGlass',
  access: 'members:write',
  tenantIn: 'params.id',
  summary:
    "Mark a member break-glass (or not): it may sign in without the tenant's SSO while settings.sign_in.require_sso is on, and each such sign-in is audited member.break_glass_used. Audited member.break_glass_changed; the same value again changes nothing",
  tags: ['members'],
  extension: true,
  params: MemberParams,
  body: BreakGlassPut,
  responses: {
    200: { description: 'the member', schema: Member },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'not a member (or no such tenant)', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => ({ status: 200, body: toMember(await setBreakGlass(deps, params.id, params.user_id, body.break_glass, meta)) }),
});
