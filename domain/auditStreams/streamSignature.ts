import { createHmac, timingSafeEqual } from 'node:crypto';

/** The X-Registry-Signature header of a delivery: `sha256=` and the hex HMAC-SHA256 of the exact body with the secret. */
export const signDelivery = (body: string, secret: string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** What a receiver does (and the tests do): recompute the signature and compare in constant time. */
export function deliverySignatureMatches(body: string, secret: string, header: string | null | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signDelivery(body, secret));
  const actual = Buffer.from(header);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
