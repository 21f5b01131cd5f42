import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestEquals, sha256Digest } from '../../domain/sha256Digest.ts';

const stored = (secret: string) => createHash('sha256').update(secret).digest();

describe('sha256Digest and digestEquals', () => {
  it('a secret matches the SHA-256 stored for it', () => {
    expect(sha256Digest('trk_secret')).toBe(stored('trk_secret').toString('base64url'));
    expect(digestEquals(sha256Digest('trk_secret'), stored('trk_secret'))).toBe(true);
  });

  it('another secret does not match, whether it differs in its first or last character', () => {
    expect(digestEquals(sha256Digest('Xrk_secret'), stored('trk_secret'))).toBe(false);
    expect(digestEquals(sha256Digest('trk_secreX'), stored('trk_secret'))).toBe(false);
  });

  it('a digest differing from the stored one in a single character, at either end, does not match', () => {
    const expected = stored('scim_token');
    const presented = sha256Digest('scim_token');
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    expect(digestEquals(flip(presented, 0), expected)).toBe(false);
    expect(digestEquals(flip(presented, presented.length - 1), expected)).toBe(false);
  });

  it('a stored hash held as a plain Uint8Array (a structured clone of the Buffer) is compared by its bytes', () => {
    expect(digestEquals(sha256Digest('trk_secret'), new Uint8Array(stored('trk_secret')))).toBe(true);
    expect(digestEquals(sha256Digest('trk_other'), new Uint8Array(stored('trk_secret')))).toBe(false);
  });

  it('a stored hash of another length (not a SHA-256) matches nothing, not even its own prefix', () => {
    const expected = stored('scim_token');
    expect(digestEquals(sha256Digest('scim_token'), expected.subarray(0, 16))).toBe(false);
    expect(digestEquals(sha256Digest('scim_token'), Buffer.alloc(0))).toBe(false);
  });
});
