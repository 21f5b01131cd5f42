import { createPermissionRoute } from './createPermission.ts';
import { deletePermissionRoute } from './deletePermission.ts';
import { listPermissionsRoute } from './listPermissions.ts';

export const permissionRoutes = [listPermissionsRoute, createPermissionRoute, deletePermissionRoute];
