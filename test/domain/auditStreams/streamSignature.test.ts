import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliverySignatureMatches, signDelivery } from '../../../domain/auditStreams/streamSignature.ts';
import { checkStreamTarget } from '../../../domain/auditStreams/createAuditStream.ts';

describe('stream deliveries', () => {
  it('are signed sha256=<hex HMAC-SHA256 of the exact body>, which a receiver checks', () => {
    const body = '{"id":1,"action":"a"}';
    expect(signDelivery(body, 'secret')).toBe(`sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`);
    expect(deliverySignatureMatches(body, 'secret', signDelivery(body, 'secret'))).toBe(true);
    expect(deliverySignatureMatches(`${body} `, 'secret', signDelivery(body, 'secret'))).toBe(false);
    expect(deliverySignatureMatches(body, 'other', signDelivery(body, 'secret'))).toBe(false);
    expect(deliverySignatureMatches(body, 'secret', undefined)).toBe(false);
  });

  it('go only to http(s) URLs without credentials, and only to the allowed hosts when a list is set', () => {
    expect(() => checkStreamTarget('https://siem.example/in', undefined)).not.toThrow();
    expect(() => checkStreamTarget('ftp://siem.example/in', undefined)).toThrow(/http or https/);
    expect(() => checkStreamTarget('https://user:pw@siem.example/in', undefined)).toThrow(/credentials/);
    expect(() => checkStreamTarget('https://SIEM.example/in', ['siem.example'])).not.toThrow();
    expect(() => checkStreamTarget('https://evil.example/in', ['siem.example'])).toThrow(/AUDIT_STREAM_ALLOWED_HOSTS/);
  });
});
