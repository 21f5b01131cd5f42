import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A portal link's or session's secret: 32 random bytes, base64url; only its SHA-256 is stored. */
export function newPortalSecret(): { secret: string; hash: Buffer } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: portalSecretHash(secret) };
}

export const portalSecretHash = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** A form's CSRF token against the session's, in constant time. */
export function csrfTokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
