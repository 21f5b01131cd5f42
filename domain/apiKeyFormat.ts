import { hash, randomBytes } from 'node:crypto';
import { digestEquals, sha256Digest } from './sha256Digest.ts';
import { crc32 } from 'node:zlib';

/**
 * Plaintext key: `trk_<public id>_<secret>_<checksum>`.
 * - public id: 16 lowercase base32 chars (80 bits), stored in clear as the key's `prefix` `trk_<public id>`;
 * - secret: 43 base64url chars (256 bits);
 * - checksum: CRC-32 of everything before it, 7 base36 chars, so a mistyped key fails before any database read.
 * Only SHA-256 of the whole plaintext is stored: the secret is high-entropy, so a slow hash buys nothing.
 */
export const API_KEY_TAG = 'trk';
const KEY_PATTERN = /^trk_([a-z2-7]{16})_([A-Za-z0-9_-]{43})_([0-9a-z]{7})$/;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export interface ParsedApiKey {
  prefix: string;
  plaintext: string;
}

const checksumOf = (body: string) => crc32(body).toString(36).padStart(7, '0');

function base32(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}

export function generateApiKey(): { plaintext: string; prefix: string; hash: Buffer } {
  const prefix = `${API_KEY_TAG}_${base32(randomBytes(16))}`;
  const body = `${prefix}_${randomBytes(32).toString('base64url')}`;
  const plaintext = `${body}_${checksumOf(body)}`;
  return { plaintext, prefix, hash: hashApiKey(plaintext) };
}

/** Returns null for anything that is not a well-formed key with a matching checksum. */
export function parseApiKey(candidate: string): ParsedApiKey | null {
  if (candidate.length !== 4 + 16 + 1 + 43 + 1 + 7) return null;
  const match = KEY_PATTERN.exec(candidate);
  if (!match) return null;
  const body = candidate.slice(0, candidate.length - 8);
  if (checksumOf(body) !== match[3]) return null;
  return { prefix: `${API_KEY_TAG}_${match[1]}`, plaintext: candidate };
}

/** The key's SHA-256 as stored (one-shot crypto.hash: cheaper than a createHash object, which it does not make). */
export const hashApiKey = (plaintext: string): Buffer => hash('sha256', plaintext, 'buffer');

/** Whether the plaintext is the key whose hash is stored (verify's check, on every call: no Buffer made). */
export const hashMatches = (plaintext: string, storedHash: Buffer): boolean => digestEquals(sha256Digest(plaintext), storedHash);
