import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { deleteRole } from '../../../domain/roles/deleteRole.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const deleteRoleRoute = defineRoute({
  method: 'delete',
  path: '/v1/roles/{id}',
  operationId: 'deleteRole',
  access: 'members:write',
  summary: 'Delete a role no member holds; built-in roles stay. A shared role only with a token bound to no tenant that holds registry:admin, whatever AUTH_REQUIRE_SCOPES says (403)',
  tags: ['roles'],
  extension: true,
  params: IdParams,
  responses: {
    204: { description: 'deleted' },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such role', schema: ErrorBody },
    409: { description: 'built in, or a member holds it', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps, caller, sharedAuthority }) => {
    await deleteRole(deps, params.id, meta, caller.reach, sharedAuthority);
    return { status: 204 };
  },
});
