import { conflict } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { PermissionCreate } from '../schemas/roles.ts';
import type { PermissionRecord } from './permissionRecord.ts';

/** A product's new permission with its audit event; a slug that exists is 409. */
export async function createPermission({ stores }: RegistryContext, input: PermissionCreate, meta: RequestMeta): Promise<PermissionRecord> {
  const permission: PermissionRecord = { slug: input.slug, description: input.description ?? '', builtIn: false, createdAt: new Date() };
  const created = await stores.roles.insertPermission(
    permission,
    { action: 'permission.created', target_id: permission.slug, target_type: 'permission', target_name: permission.slug, metadata: { description: permission.description } },
    meta,
  );
  if (!created) throw conflict(`a permission ${input.slug} exists`);
  return permission;
}
