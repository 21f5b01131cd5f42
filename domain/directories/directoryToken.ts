import { hash, randomBytes } from 'node:crypto';
import { digestEquals, sha256Digest } from '../sha256Digest.ts';
import type { DirectoryRecord } from './directoryRecord.ts';

/** A directory's bearer token: a recognisable prefix and 32 random bytes; only its SHA-256 is kept. */
export function newDirectoryToken(): { token: string; tokenHash: Buffer } {
  const token = `scim_${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: directoryTokenHash(token) };
}

export const directoryTokenHash = (token: string): Buffer => hash('sha256', token, 'buffer');

/** How long the token before a rotation keeps working (SPEC-EXTENSIONS §10: 24 h). */
export const ROTATION_GRACE_MS = 24 * 60 * 60_000;

/** Whether `token` is the directory's current token, or its previous one within the grace, compared in constant time. */
export function tokenOpens(directory: Pick<DirectoryRecord, 'tokenHash' | 'previousTokenHash' | 'previousTokenExpiresAt'>, token: string, now: Date): boolean {
  const presented = sha256Digest(token);
  if (digestEquals(presented, directory.tokenHash)) return true;
  const previous = directory.previousTokenHash;
  return previous !== null && directory.previousTokenExpiresAt !== null && directory.previousTokenExpiresAt > now && digestEquals(presented, previous);
}
