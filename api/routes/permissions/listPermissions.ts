import { PermissionList } from '../../../domain/schemas/roles.ts';
import { toPermission } from '../../../domain/roles/permissionResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listPermissionsRoute = defineRoute({
  method: 'get',
  path: '/v1/permissions',
  operationId: 'listPermissions',
  access: 'members:read',
  summary: 'List the permissions roles can grant, built-in ones included, by slug',
  tags: ['permissions'],
  extension: true,
  responses: { 200: { description: 'permissions', schema: PermissionList } },
  handler: async (_input, { deps }) => ({ status: 200, body: { items: (await deps.stores.roles.listPermissions()).map(toPermission) } }),
});
