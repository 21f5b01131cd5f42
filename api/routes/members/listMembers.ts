import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { MemberList, MemberListQuery } from '../../../domain/schemas/members.ts';
import { listMembers } from '../../../domain/members/listMembers.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listMembersRoute = defineRoute({
  method: 'get',
  path: '/v1/tenants/{id}/members',
  operationId: 'listMembers',
  access: 'members:read',
  tenantIn: 'params.id',
  summary:
    "List a tenant's members by e-mail (case-insensitive), then user id, filtered by role, status and a case-insensitive prefix of the e-mail or name (q), in pages (limit 1–500, default 50; cursor)",
  tags: ['members'],
  extension: true,
  params: IdParams,
  query: MemberListQuery,
  responses: {
    200: { description: 'a page of members', schema: MemberList },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ params, query }, { deps }) => ({ status: 200, jsonText: await listMembers(deps, params.id, query, deps.cache) }),
});
