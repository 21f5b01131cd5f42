import { conflict, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { LockedPermission } from './roleRepository.ts';

/** The deletion rule: a built-in permission, or one a role grants, stays (409). */
export function planPermissionDeletion(permission: LockedPermission): AuditAppend {
  if (permission.builtIn) throw conflict(`${permission.slug} is a built-in permission and cannot be deleted`);
  if (permission.grantedByRoles > 0) throw conflict(`${permission.grantedByRoles} role(s) grant ${permission.slug}; take it from them first`);
  return {
    action: 'permission.deleted',
    target_id: permission.slug,
    target_type: 'permission',
    target_name: permission.slug,
    metadata: { description: permission.description },
  };
}

export async function deletePermission({ stores }: RegistryContext, slug: string, meta: RequestMeta): Promise<void> {
  const deleted = await stores.roles.removePermission(slug, meta, planPermissionDeletion);
  if (!deleted) throw notFound('permission');
}
