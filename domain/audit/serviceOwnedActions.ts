/**
 * Actions only the service itself appends: its lifecycle, key, entitlement, catalog, provisioning, audit, permission,
 * role, member, invitation, domain, SSO, directory and portal events. A caller of POST /v1/audit may not write them, so no one can forge `tenant.created` or
 * `role.updated`, or pre-empt a workflow's outcome event.
 */
export const SERVICE_OWNED_ACTION_PREFIXES = [
  'tenant.', 'api_key.', 'entitlement.', 'catalog.', 'idp.', 'audit.', 'permission.', 'role.', 'member.', 'invitation.', 'domain.', 'sso.', 'directory.', 'portal.',
] as const;

/** The same rule as a JSON Schema pattern, for the OpenAPI document (`not: { pattern }`). */
export const SERVICE_OWNED_ACTION_PATTERN = `^(${SERVICE_OWNED_ACTION_PREFIXES.map((prefix) => prefix.replace('.', '\\.')).join('|')})`;

/** The actor type of the service's own events (SYSTEM_ACTOR): refused on POST /v1/audit, so no caller poses as the service. */
export const SERVICE_ACTOR_TYPE = 'system';

export function isServiceOwnedAction(action: string): boolean {
  return SERVICE_OWNED_ACTION_PREFIXES.some((prefix) => action.startsWith(prefix));
}
