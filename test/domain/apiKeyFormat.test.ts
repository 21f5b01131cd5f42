import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_TAG, generateApiKey, hashApiKey, hashMatches, parseApiKey } from '../../domain/apiKeyFormat.ts';

const KEYS = Array.from({ length: 20 }, () => generateApiKey());
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';

/** Every other character of the alphabet at position i, so each substitution is a one-character change. */
function oneCharacterChanges(key: string, i: number): string[] {
  return [...ALPHABET].filter((c) => c !== key[i]).map((c) => key.slice(0, i) + c + key.slice(i + 1));
}

describe('apiKeyFormat', () => {
  it('generated keys parse back with their prefix', () => {
    for (const { plaintext, prefix } of KEYS) {
      expect(parseApiKey(plaintext)).toEqual({ prefix, plaintext });
    }
  });

  it('generated keys are distinct', () => {
    expect(new Set(KEYS.map((k) => k.plaintext)).size).toBe(KEYS.length);
    expect(new Set(KEYS.map((k) => k.prefix)).size).toBe(KEYS.length);
  });

  it('a one-character change anywhere in the key fails the checksum', () => {
    for (const { plaintext } of KEYS.slice(0, 5)) {
      for (let i = 0; i < plaintext.length; i++) {
        for (const changed of oneCharacterChanges(plaintext, i)) {
          expect(parseApiKey(changed), `position ${i}: ${changed}`).toBeNull();
        }
      }
    }
  });

  it('swapping two adjacent different characters fails the checksum', () => {
    const { plaintext } = KEYS[0]!;
    for (let i = 0; i < plaintext.length - 1; i++) {
      if (plaintext[i] === plaintext[i + 1]) continue;
      const swapped = plaintext.slice(0, i) + plaintext[i + 1] + plaintext[i] + plaintext.slice(i + 2);
      expect(parseApiKey(swapped)).toBeNull();
    }
  });

  it('a key of the wrong length fails', () => {
    const { plaintext } = KEYS[0]!;
    expect(parseApiKey(plaintext.slice(0, -1))).toBeNull();
    expect(parseApiKey(`${plaintext}a`)).toBeNull();
    expect(parseApiKey('')).toBeNull();
  });

  it('a key with another prefix tag fails', () => {
    const { plaintext } = KEYS[0]!;
    expect(parseApiKey(`abc${plaintext.slice(3)}`)).toBeNull();
    expect(parseApiKey(` ${plaintext.slice(1)}`)).toBeNull();
  });

  it('a key with surrounding whitespace fails', () => {
    const { plaintext } = KEYS[0]!;
    expect(parseApiKey(` ${plaintext}`)).toBeNull();
    expect(parseApiKey(`${plaintext}\n`)).toBeNull();
  });

  it('the prefix is the public part: the tag and public id, without the secret or checksum', () => {
    for (const { plaintext, prefix } of KEYS) {
      expect(prefix).toMatch(new RegExp(`^${API_KEY_TAG}_[a-z2-7]{16}$`));
      expect(plaintext.startsWith(`${prefix}_`)).toBe(true);
      const secret = plaintext.slice(prefix.length + 1, -8);
      expect(secret).toHaveLength(43);
      expect(prefix).not.toContain(secret);
    }
  });

  it('the stored hash is SHA-256 of the whole plaintext and never the plaintext', () => {
    const { plaintext, hash } = KEYS[0]!;
    expect(hash.equals(createHash('sha256').update(plaintext).digest())).toBe(true);
    expect(hash.toString('utf8')).not.toContain(plaintext);
    expect(hashApiKey(plaintext).equals(hash)).toBe(true);
  });

  it('hashMatches accepts the right plaintext and rejects any other', () => {
    const [a, b] = KEYS;
    expect(hashMatches(a!.plaintext, a!.hash)).toBe(true);
    expect(hashMatches(b!.plaintext, a!.hash)).toBe(false);
    expect(hashMatches(a!.plaintext.slice(0, -1), a!.hash)).toBe(false);
  });

  it('hashMatches answers false, not an exception, for a stored hash of another length', () => {
    const { plaintext, hash } = KEYS[0]!;
    expect(hashMatches(plaintext, hash.subarray(0, 16))).toBe(false);
    expect(hashMatches(plaintext, Buffer.alloc(0))).toBe(false);
  });
});
