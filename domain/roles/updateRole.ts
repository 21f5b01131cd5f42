import { EVERY_TENANT, type TenantReach } from '../access/tenantReach.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { RolePatch } from '../schemas/roles.ts';
import type { RoleRecord } from './roleRecord.ts';
import type { LockedRole, RoleChange } from './roleRepository.ts';
import { requireDefaultStaysUnprivileged } from './defaultRoleRule.ts';
import { requireRoleReach } from './roleReach.ts';
import { requireKnownPermissions, sortedPermissions } from './rolePermissions.ts';

/**
 * The PATCH rule: the given fields replace the stored ones, `permissions` the whole set (each must exist). Built-in
 * roles may change too: their slug, which tokens carry, never does. The event lists each changed field's old and new
 * value; a PATCH that changes nothing writes nothing. A default role does not gain members:manage (409).
 */
export function planRoleUpdate(role: LockedRole, patch: RolePatch, knownPermissions: ReadonlySet<string>, now: Date): RoleChange<RoleRecord> {
  const current: RoleRecord = {
    id: role.id,
    slug: role.slug,
    name: role.name,
    description: role.description,
    permissions: role.permissions,
    tenantId: role.tenantId,
    builtIn: role.builtIn,
    createdAt: role.createdAt,
    updatedAt: role.updatedAt,
  };
  const permissions = patch.permissions === undefined ? role.permissions : sortedPermissions(patch.permissions);
  requireKnownPermissions(patch.permissions === undefined ? [] : permissions, knownPermissions);
  requireDefaultStaysUnprivileged(role, permissions);
  const after = { name: patch.name ?? role.name, description: patch.description ?? role.description, permissions };
  const changes: Record<string, { old: unknown; new: unknown }> = {};
  if (after.name !== role.name) changes.name = { old: role.name, new: after.name };
  if (after.description !== role.description) changes.description = { old: role.description, new: after.description };
  if (after.permissions.join(' ') !== role.permissions.join(' ')) changes.permissions = { old: role.permissions, new: after.permissions };
  if (Object.keys(changes).length === 0) return { result: current };
  return {
    update: { ...after, updatedAt: now },
    pushClaims: changes.permissions !== undefined,
    event: {
      action: 'role.updated',
      tenant_id: role.tenantId ?? undefined,
      target_id: role.id,
      target_type: 'role',
      target_name: role.slug,
      metadata: { changes },
    },
    result: { ...current, ...after, updatedAt: now },
  };
}

/**
 * A tenant's role changes for a caller that reaches its tenant; a shared role (every tenant's), built-in ones included,
 * for an unbound caller with the shared authority (registry:admin) only. A change of its permissions reaches its holders' claims: pushed to each of their tenants, and every member this
 * replica caches read again.
 */
export async function updateRole({ stores, effects }: RegistryContext, id: string, patch: RolePatch, meta: RequestMeta, reach: TenantReach = EVERY_TENANT, sharedAuthority = true): Promise<RoleRecord> {
  const named = patch.permissions === undefined ? [] : sortedPermissions(patch.permissions);
  const updated = await stores.roles.changeRole(id, meta, named, (role, knownPermissions, now) => {
    requireRoleReach(reach, role.tenantId, 'role', 'change a role shared by every tenant', sharedAuthority);
    return planRoleUpdate(role, patch, knownPermissions, now);
  });
  if (!updated) throw notFound('role');
  if (updated.changed) effects.follow({ handOffs: updated.handOffs, staleAllMembers: true });
  return updated.result;
}
