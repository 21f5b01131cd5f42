/**
 * Least-privilege scopes (SPEC-EXTENSIONS §5): each operation needs one, read from the token's space-separated
 * `scope` claim; `registry:admin` grants every one.
 */
export const SCOPES = {
  'tenants:read': 'read tenants, their entitlements, the catalog and API key metadata',
  'tenants:write': 'create and change tenants, entitlements, catalog requests and API keys',
  'keys:verify': 'verify API keys (products)',
  'claims:read': "resolve a user's claims and memberships (the identity provider's mapper)",
  'audit:read': 'read, export and check the audit log; list audit streams',
  'audit:write': 'append audit events',
  'audit:streams': 'create and delete audit streams: where the registry sends every tenant\'s audit events',
  'provisioning:operate': 'resend invites and retry provisioning',
  'members:read': "read permissions, roles, tenants' members and invitations",
  'members:write': "create, change and delete a tenant's own roles; add, change, deactivate, reactivate and remove tenants' members; invite, resend and revoke invitations; portal links",
  'events:read': "read the events feed (GET /v1/events): every tenant's events as CloudEvents, a bound token's own tenants' only",
  'events:write': 'create, change, replay and delete webhook endpoints: where the registry sends typed events',
  'registry:admin': 'everything, including decoding Temporal payloads and changing what every tenant shares: the permissions catalog and the shared roles',
} as const;

export type Scope = keyof typeof SCOPES;
export const ADMIN_SCOPE: Scope = 'registry:admin';

/** Who may call an operation: anyone (no token even with AUTH_ENABLED), or a token carrying the scope. */
export type RouteAccess = 'public' | Scope;

/** The scopes a verified token carries; a missing or non-string claim carries none. */
export function scopesOf(principal: { scope?: unknown } | undefined): ReadonlySet<string> {
  const claim = principal?.scope;
  return new Set(typeof claim === 'string' ? claim.split(' ').filter(Boolean) : []);
}

export function grants(scopes: ReadonlySet<string>, needed: Scope): boolean {
  return scopes.has(needed) || scopes.has(ADMIN_SCOPE);
}
