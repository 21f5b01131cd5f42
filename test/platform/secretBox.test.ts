import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../platform/secretBox.ts';
import { newPayloadKey } from '../../platform/temporal/payloadKeys.ts';

const SECRET = 'siem-signing-secret-0123456789';

describe('SecretBox', () => {
  it('seals so that nothing of the secret is readable, names its key, and opens it back exactly', () => {
    const box = new SecretBox([newPayloadKey('s1')]);
    const sealed = box.seal(SECRET, 'audit_stream:a');
    expect(sealed).toMatch(/^v1:s1:[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(Buffer.from(sealed.split(':')[2]!, 'base64').toString('latin1')).not.toContain(SECRET);
    expect(box.open(sealed, 'audit_stream:a')).toBe(SECRET);
    expect(box.seal(SECRET, 'audit_stream:a')).not.toBe(sealed);
  });

  it('rotates: the first key seals, an older one still opens what it sealed', () => {
    const old = newPayloadKey('old');
    const byOld = new SecretBox([old]).seal(SECRET, 'c');
    const rotated = new SecretBox([newPayloadKey('new'), old]);
    expect(rotated.open(byOld, 'c')).toBe(SECRET);
    expect(rotated.seal(SECRET, 'c')).toMatch(/^v1:new:/);
  });

  it('never opens to a wrong secret: another context, an unknown key, a changed byte or a value that was never sealed fail', () => {
    const key = newPayloadKey('s1');
    const box = new SecretBox([key]);
    const sealed = box.seal(SECRET, 'audit_stream:a');
    expect(() => box.open(sealed, 'audit_stream:b')).toThrow();
    expect(() => new SecretBox([newPayloadKey('other')]).open(sealed, 'audit_stream:a')).toThrow(/no secret key with id "s1".*REGISTRY_SECRET_KEYS/);
    const bytes = Buffer.from(sealed.split(':')[2]!, 'base64');
    bytes[14]! ^= 1;
    expect(() => box.open(`v1:s1:${bytes.toString('base64')}`, 'audit_stream:a')).toThrow();
    expect(() => box.open(SECRET, 'audit_stream:a')).toThrow(/not a sealed secret/);
  });
});
