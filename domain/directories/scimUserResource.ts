import { isoTimestamp } from '../isoTimestamp.ts';
import { SCIM_USER_SCHEMA } from './scimDiscovery.ts';
import { ScimError } from './scimError.ts';
import type { DirectoryUserRecord } from './directoryUserRecord.ts';

/** The attributes of a SCIM User this endpoint keeps (RFC 7643 §4.1), as the client wrote them. */
export interface ScimUserInput {
  userName: string;
  externalId: string | null;
  active: boolean;
  resource: Record<string, unknown>;
}

const KEPT = ['userName', 'externalId', 'name', 'displayName', 'emails', 'active'] as const;

const invalid = (detail: string) => new ScimError('invalid_input', detail, { scimType: 'invalidValue' });

/** A User resource read and checked: userName required, the kept attributes of the right types; others dropped. */
export function scimUserInput(body: unknown): ScimUserInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('the body must be a SCIM User resource');
  const input = body as Record<string, unknown>;
  const userName = input.userName;
  if (typeof userName !== 'string' || userName.trim() === '' || userName.length > 255) throw invalid('userName is required (1 to 255 characters)');
  if (input.externalId !== undefined && input.externalId !== null && typeof input.externalId !== 'string') throw invalid('externalId must be a string');
  const active = input.active === undefined ? true : typeof input.active === 'string' ? input.active.toLowerCase() === 'true' : input.active;
  if (typeof active !== 'boolean') throw invalid('active must be a boolean');
  if (input.emails !== undefined && !Array.isArray(input.emails)) throw invalid('emails must be a list');
  if (input.name !== undefined && (typeof input.name !== 'object' || input.name === null)) throw invalid('name must be an object');
  const resource: Record<string, unknown> = {};
  for (const key of KEPT) if (input[key] !== undefined) resource[key] = input[key];
  // Absent, the user is active, and answered without the attribute, as the client left it (RFC 7644 §3.5.2.2).
  if (input.active !== undefined) resource.active = active;
  return { userName: userName.trim(), externalId: typeof input.externalId === 'string' ? input.externalId : null, active, resource };
}

/** The address the provider's user gets: the primary e-mail, else the first, else a userName that is one. */
export function emailOf(user: Pick<DirectoryUserRecord, 'userName' | 'resource'>): string | undefined {
  const emails = Array.isArray(user.resource.emails) ? (user.resource.emails as { value?: unknown; primary?: unknown }[]) : [];
  const chosen = emails.find((e) => e.primary === true && typeof e.value === 'string') ?? emails.find((e) => typeof e.value === 'string');
  const value = typeof chosen?.value === 'string' ? chosen.value : user.userName;
  return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value) ? value.toLowerCase() : undefined;
}

/** A person's name as the resource gives it: `name.formatted`, given and family names, or displayName. */
export function nameOf(user: Pick<DirectoryUserRecord, 'resource'>): string {
  const name = (user.resource.name ?? {}) as { formatted?: unknown; givenName?: unknown; familyName?: unknown };
  if (typeof name.formatted === 'string') return name.formatted;
  const parts = [name.givenName, name.familyName].filter((p): p is string => typeof p === 'string' && p !== '');
  if (parts.length > 0) return parts.join(' ');
  return typeof user.resource.displayName === 'string' ? user.resource.displayName : '';
}

/** The User as answered: its kept attributes, its id, and meta. */
export function toScimUser(user: DirectoryUserRecord, base: string): Record<string, unknown> {
  return {
    schemas: [SCIM_USER_SCHEMA],
    id: user.id,
    ...user.resource,
    userName: user.userName,
    ...(user.resource.active !== undefined ? { active: user.active } : {}),
    ...(user.externalId !== null ? { externalId: user.externalId } : {}),
    groups: (user.groups ?? []).map((group) => ({ value: group.id, display: group.displayName, $ref: `${base}/Groups/${group.id}`, type: 'direct' })),
    meta: { resourceType: 'User', created: isoTimestamp(user.createdAt), lastModified: isoTimestamp(user.updatedAt), location: `${base}/Users/${user.id}` },
  };
}
