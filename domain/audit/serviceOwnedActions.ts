/**
 * Actions only the service itself appends: its lifecycle, key, entitlement, catalog, provisioning, audit, permission,
 * role, member, invitation, domain, SSO, directory, portal and webhook endpoint events. A caller of POST /v1/audit may not write them, so no one can forge `tenant.created` or
 * `role.updated`, or pre-empt a workflow's outcome event.
 */
export const SERVICE_OWNED_ACTION_PREFIXES = [
  'tenant.', 'api_key.', 'entitlement.', 'catalog.', 'idp.', 'audit.', 'permission.', 'role.', 'member.', 'invitation.', 'domain.', 'sso.', 'directory.', 'portal.', 'sign_in.', 'webhook_endpoint.',
] as const;

/** The actor type of the service's own events (SYSTEM_ACTOR). */
export const SERVICE_ACTOR_TYPE = 'system';

/**
 * Every actor type the service writes for an actor that is not the caller: itself, a portal session, a directory
 * (SPEC-EXTENSIONS §13). POST /v1/audit refuses them, so no caller poses as one; `service`, what the service writes
 * for a token's own changes, stays the caller's (recorded_by names it whatever the body says).
 */
export const SERVICE_ACTOR_TYPES = [SERVICE_ACTOR_TYPE, 'portal', 'directory'] as const;

/** A text's letters each as a class of both cases: `[sS][yY]…`, a pattern without flags (JSON Schema has none). */
const eitherCase = (text: string) => text.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`).replaceAll('.', '\\.');

/**
 * The rules as JSON Schema patterns, for the OpenAPI document (`not: { pattern }`) and the check itself, one text for
 * both: any letter case, and leading (and, for an actor type, trailing) white space, so `Member.removed` or ` System`
 * is refused like `member.removed` and `system`.
 */
export const SERVICE_OWNED_ACTION_PATTERN = `^\\s*(${SERVICE_OWNED_ACTION_PREFIXES.map(eitherCase).join('|')})`;
export const SERVICE_ACTOR_TYPE_PATTERN = `^\\s*(${SERVICE_ACTOR_TYPES.map(eitherCase).join('|')})\\s*$`;

const SERVICE_OWNED_ACTION = new RegExp(SERVICE_OWNED_ACTION_PATTERN);
const SERVICE_ACTOR = new RegExp(SERVICE_ACTOR_TYPE_PATTERN);

export const isServiceOwnedAction = (action: string): boolean => SERVICE_OWNED_ACTION.test(action);
export const isServiceActorType = (actorType: string): boolean => SERVICE_ACTOR.test(actorType);
