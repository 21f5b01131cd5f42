import { ErrorBody } from '../../../domain/schemas/common.ts';
import { Role, RoleCreate } from '../../../domain/schemas/roles.ts';
import { createRole } from '../../../domain/roles/createRole.ts';
import { toRole } from '../../../domain/roles/roleResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const createRoleRoute = defineRoute({
  method: 'post',
  path: '/v1/roles',
  operationId: 'createRole',
  access: 'members:write',
  summary:
    "Create a role of a tenant (tenant_id) or, without one, a role every tenant has (refused, 403, to a token bound to tenants or without registry:admin, whatever AUTH_REQUIRE_SCOPES says). The slug is unique among the shared roles and within a tenant; a tenant's role may not take a shared role's slug, nor a shared role one a tenant uses (409). Every permission must exist (400)",
  tags: ['roles'],
  extension: true,
  body: RoleCreate,
  responses: {
    201: {
      description: 'the role',
      schema: Role,
      links: {
        updateRole: { operationId: 'updateRole', parameters: { id: '$response.body#/id' } },
        deleteRole: { operationId: 'deleteRole', parameters: { id: '$response.body#/id' } },
      },
    },
    400: { description: 'invalid input, or a permission that does not exist', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
    409: { description: 'the slug is taken (see above)', schema: ErrorBody },
  },
  handler: async ({ body }, { meta, deps, caller, sharedAuthority }) => ({ status: 201, body: toRole(await createRole(deps, body, meta, caller.reach, sharedAuthority)) }),
});
