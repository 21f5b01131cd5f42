/** What a portal link opens (SPEC-EXTENSIONS §11): one part of the tenant's administration, and nothing else. */
export const PORTAL_INTENTS = ['members', 'invitations', 'domains', 'sso', 'directory', 'audit'] as const;
export type PortalIntent = (typeof PORTAL_INTENTS)[number];

export const isPortalIntent = (value: string): value is PortalIntent => (PORTAL_INTENTS as readonly string[]).includes(value);
