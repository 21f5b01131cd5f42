import { ErrorBody } from '../../../domain/schemas/common.ts';
import { Permission, PermissionCreate } from '../../../domain/schemas/roles.ts';
import { createPermission } from '../../../domain/roles/createPermission.ts';
import { toPermission } from '../../../domain/roles/permissionResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const createPermissionRoute = defineRoute({
  method: 'post',
  path: '/v1/permissions',
  operationId: 'createPermission',
  access: 'registry:admin',
  acrossTenants: 'define permissions, which every tenant shares',
  summary: "Define a permission (a product's own, e.g. reports:export) that roles can then grant. The catalog is every tenant's: registry:admin only, even with AUTH_REQUIRE_SCOPES=false",
  tags: ['permissions'],
  extension: true,
  body: PermissionCreate,
  responses: {
    201: {
      description: 'the permission',
      schema: Permission,
      links: { deletePermission: { operationId: 'deletePermission', parameters: { slug: '$response.body#/slug' } } },
    },
    400: { description: 'invalid input', schema: ErrorBody },
    409: { description: 'a permission of this slug exists', schema: ErrorBody },
  },
  handler: async ({ body }, { meta, deps }) => ({ status: 201, body: toPermission(await createPermission(deps, body, meta)) }),
});
