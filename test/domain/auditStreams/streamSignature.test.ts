import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliverySignatureMatches, signDelivery } from '../../../domain/auditStreams/streamSignature.ts';

describe('stream deliveries', () => {
  it('are signed sha256=<hex HMAC-SHA256 of the exact body>, which a receiver checks', () => {
    const body = '{"id":1,"action":"a"}';
    expect(signDelivery(body, 'secret')).toBe(`sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`);
    expect(deliverySignatureMatches(body, 'secret', signDelivery(body, 'secret'))).toBe(true);
    expect(deliverySignatureMatches(`${body} `, 'secret', signDelivery(body, 'secret'))).toBe(false);
    expect(deliverySignatureMatches(body, 'other', signDelivery(body, 'secret'))).toBe(false);
    expect(deliverySignatureMatches(body, 'secret', undefined)).toBe(false);
  });
});
