import { ErrorBody } from '../../../domain/schemas/common.ts';
import { RoleList, RoleListQuery } from '../../../domain/schemas/roles.ts';
import { listRoles } from '../../../domain/roles/listRoles.ts';
import { toRole } from '../../../domain/roles/roleResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listRolesRoute = defineRoute({
  method: 'get',
  path: '/v1/roles',
  operationId: 'listRoles',
  access: 'members:read',
  tenantIn: 'query.tenant_id',
  summary: "List every role shared by all tenants and, with tenant_id, that tenant's own roles (shared first, each by slug)",
  tags: ['roles'],
  extension: true,
  query: RoleListQuery,
  responses: {
    200: { description: 'roles', schema: RoleList },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ query }, { deps }) => ({ status: 200, body: { items: (await listRoles(deps.stores.roles, query.tenant_id)).map(toRole) } }),
});
