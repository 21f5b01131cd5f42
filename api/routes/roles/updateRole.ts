import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Role, RolePatch } from '../../../domain/schemas/roles.ts';
import { toRole } from '../../../domain/roles/roleResponse.ts';
import { updateRole } from '../../../domain/roles/updateRole.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const updateRoleRoute = defineRoute({
  method: 'patch',
  path: '/v1/roles/{id}',
  operationId: 'updateRole',
  access: 'members:write',
  summary:
    "Change a role's name, description or permissions (the whole set; each must exist, 400), built-in roles included; a shared role only with a token bound to no tenant that holds registry:admin, whatever AUTH_REQUIRE_SCOPES says (403). A role that is some tenant's default_role (MEMBER always is) cannot gain members:manage (409)",
  tags: ['roles'],
  extension: true,
  params: IdParams,
  body: RolePatch,
  responses: {
    200: { description: 'the role', schema: Role },
    400: { description: 'invalid input, or a permission that does not exist', schema: ErrorBody },
    404: { description: 'no such role', schema: ErrorBody },
    409: { description: "members:manage asked for a role that is some tenant's default_role, or MEMBER", schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps, caller, sharedAuthority }) => ({ status: 200, body: toRole(await updateRole(deps, params.id, body, meta, caller.reach, sharedAuthority)) }),
});
