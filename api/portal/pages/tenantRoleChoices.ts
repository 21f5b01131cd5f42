import type { PortalScope } from '../portalIntentPage.ts';

/** The roles a member of the session's tenant may hold (its own and the shared ones), as form choices. */
export async function tenantRoleChoices(scope: PortalScope): Promise<{ value: string; label: string }[]> {
  const roles = (await scope.deps.stores.roles.listRoles(scope.tenant.id)) ?? [];
  return roles.map((role) => ({ value: role.slug, label: role.name && role.name !== role.slug ? `${role.name} (${role.slug})` : role.slug }));
}
