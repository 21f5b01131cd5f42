import { EVERY_TENANT, type TenantReach } from '../access/tenantReach.ts';
import { conflict, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { LockedRole, RoleChange } from './roleRepository.ts';
import { requireRoleReach } from './roleReach.ts';

/** The deletion rule: a built-in role, or one a member holds, stays (409). */
export function planRoleDeletion(role: LockedRole): RoleChange<true> {
  if (role.builtIn) throw conflict(`${role.slug} is a built-in role and cannot be deleted`);
  if (role.heldByMembers > 0) throw conflict(`${role.heldByMembers} member(s) hold the role ${role.slug}; take it from them first`);
  return {
    remove: true,
    event: {
      action: 'role.deleted',
      tenant_id: role.tenantId ?? undefined,
      target_id: role.id,
      target_type: 'role',
      target_name: role.slug,
      metadata: { name: role.name, description: role.description, permissions: role.permissions, shared: role.tenantId === null },
    },
    result: true,
  };
}

/**
 * A tenant's role goes for a caller that reaches its tenant; a shared role (every tenant's) for an unbound caller with
 * the shared authority (registry:admin) only.
 * No member holds it, yet every member this replica caches is read again, as the other replicas do on the deletion's
 * notification.
 */
export async function deleteRole({ stores, effects }: RegistryContext, id: string, meta: RequestMeta, reach: TenantReach = EVERY_TENANT, sharedAuthority = true): Promise<void> {
  const deleted = await stores.roles.changeRole(id, meta, [], (role) => {
    requireRoleReach(reach, role.tenantId, 'role', 'delete a role shared by every tenant', sharedAuthority);
    return planRoleDeletion(role);
  });
  if (!deleted) throw notFound('role');
  effects.follow({ handOffs: deleted.handOffs, staleAllMembers: true });
}
