import type { DeletedSsoConnection, SsoConnectionRecord } from './ssoConnectionRecord.ts';

/** Why a sign-in through a connection is not believed (SPEC-EXTENSIONS §13). */
export type SsoEmailRefusal = 'connection_deleted' | 'no_email' | 'connection_inactive' | 'domain_not_of_connection' | 'domain_not_verified';

export type SsoEmailVerdict = { allowed: true; emailDomain: string } | { allowed: false; reason: SsoEmailRefusal; emailDomain: string | null };

/** The longest domain name (RFC 1035); a longer tail of an address is no domain and is not kept whole. */
const MAX_DOMAIN_LENGTH = 253;

/** The domain of an address as the rule compares it: what follows its last `@`, lower case; null without one. */
export function emailDomainOf(email: string | undefined): string | null {
  const at = email?.lastIndexOf('@') ?? -1;
  const domain = at < 0 ? '' : email!.slice(at + 1).trim().toLowerCase();
  return domain === '' ? null : domain.slice(0, MAX_DOMAIN_LENGTH);
}

/**
 * The rule of a sign-in through a tenant's connection: its e-mail is believed only when it is at one of the
 * connection's domains, exactly (a subdomain is another name), that the tenant still holds verified, and only while the
 * connection is active. Anything else, no e-mail and a deleted connection included, is refused.
 */
export function ssoEmailVerdict(
  connection: Pick<SsoConnectionRecord | DeletedSsoConnection, 'domains' | 'state'>,
  verifiedDomains: ReadonlySet<string>,
  email: string | undefined,
): SsoEmailVerdict {
  const emailDomain = emailDomainOf(email);
  if (connection.state === 'deleted') return { allowed: false, reason: 'connection_deleted', emailDomain };
  if (emailDomain === null) return { allowed: false, reason: 'no_email', emailDomain };
  if (connection.state !== 'active') return { allowed: false, reason: 'connection_inactive', emailDomain };
  if (!connection.domains.includes(emailDomain)) return { allowed: false, reason: 'domain_not_of_connection', emailDomain };
  if (!verifiedDomains.has(emailDomain)) return { allowed: false, reason: 'domain_not_verified', emailDomain };
  return { allowed: true, emailDomain };
}
