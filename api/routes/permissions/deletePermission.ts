import { ErrorBody } from '../../../domain/schemas/common.ts';
import { PermissionSlugParams } from '../../../domain/schemas/roles.ts';
import { deletePermission } from '../../../domain/roles/deletePermission.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const deletePermissionRoute = defineRoute({
  method: 'delete',
  path: '/v1/permissions/{slug}',
  operationId: 'deletePermission',
  access: 'registry:admin',
  acrossTenants: 'delete permissions, which every tenant shares',
  summary: "Delete a permission no role grants; built-in permissions stay. The catalog is every tenant's: registry:admin only, even with AUTH_REQUIRE_SCOPES=false",
  tags: ['permissions'],
  extension: true,
  params: PermissionSlugParams,
  responses: {
    204: { description: 'deleted' },
    400: { description: 'invalid slug', schema: ErrorBody },
    404: { description: 'no such permission', schema: ErrorBody },
    409: { description: 'a role grants it, or it is built in', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps }) => {
    await deletePermission(deps, params.slug, meta);
    return { status: 204 };
  },
});
