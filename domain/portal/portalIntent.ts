/** What a portal link opens (SPEC-EXTENSIONS §11): one part of the tenant's administration, and nothing else. */
export const PORTAL_INTENTS = ['members', 'invitations', 'domains', 'sso', 'directory', 'audit'] as const;
export type PortalIntent = (typeof PORTAL_INTENTS)[number];

/**
 * The scope a caller needs to make a link for each intent (besides members:write, which every link needs): the scope
 * of what the session opens. Each change page's work is members:write's (sections 7–10); the audit page reads the
 * tenant's audit log, audit:read's.
 */
export const PORTAL_INTENT_SCOPE = {
  members: 'members:write',
  invitations: 'members:write',
  domains: 'members:write',
  sso: 'members:write',
  directory: 'members:write',
  audit: 'audit:read',
} as const satisfies Record<PortalIntent, string>;

export const isPortalIntent = (value: string): value is PortalIntent => (PORTAL_INTENTS as readonly string[]).includes(value);
