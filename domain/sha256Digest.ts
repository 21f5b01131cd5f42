import { hash } from 'node:crypto';

/**
 * A presented secret's SHA-256 as base64url text. Text, not a Buffer: a Buffer is a native allocation the garbage
 * collector must sweep, and verify and every SCIM call hash once a request; the text and the comparison below cost
 * less CPU a check, before the collector's share is even counted (docs/performance.md).
 */
export const sha256Digest = (secret: string): string => hash('sha256', secret, 'base64url');

/**
 * Whether a presented digest (sha256Digest) is the stored one, in time that does not depend on where they differ:
 * every character is compared, the differences gathered without an early return (what timingSafeEqual does for buffers).
 */
export function digestEquals(presented: string, stored: Uint8Array): boolean {
  // A plain Uint8Array (a structured clone of a Buffer) is read through a Buffer view of the same bytes.
  const expected = (Buffer.isBuffer(stored) ? stored : Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength)).toString('base64url');
  if (presented.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < presented.length; i += 1) difference |= presented.charCodeAt(i) ^ expected.charCodeAt(i);
  return difference === 0;
}
