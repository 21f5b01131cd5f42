import { createHmac } from 'node:crypto';

/**
 * The code an authenticator app shows for a TOTP secret (RFC 6238 with Keycloak's default policy: HMAC-SHA1, 6 digits,
 * 30 s), from the secret as Keycloak's OTP set-up page prints it (base32, in groups of four).
 */
export function totpCode(secret: string, at = Date.now()): string {
  const key = base32(secret.replace(/\s+/g, '').toUpperCase());
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const value = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}

function base32(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let buffer = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/=+$/, '')) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    buffer = (buffer << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}
