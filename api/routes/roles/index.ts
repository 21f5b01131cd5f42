import { createRoleRoute } from './createRole.ts';
import { deleteRoleRoute } from './deleteRole.ts';
import { listRolesRoute } from './listRoles.ts';
import { updateRoleRoute } from './updateRole.ts';

export const roleRoutes = [listRolesRoute, createRoleRoute, updateRoleRoute, deleteRoleRoute];
