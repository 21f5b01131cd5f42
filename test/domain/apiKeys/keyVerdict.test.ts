import { describe, expect, it } from 'vitest';
import type { VerifiableKey } from '../../../domain/apiKeys/apiKeyRepository.ts';
import { keyVerdict } from '../../../domain/apiKeys/keyVerdict.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const key = (extra: Partial<VerifiableKey> = {}): VerifiableKey => ({
  id: 'k',
  tenantId: 't',
  product: 'analytics',
  scopes: ['read', 'write'],
  keyHash: Buffer.alloc(32),
  revoked: false,
  expiresAt: null,
  lastUsedAt: 0,
  ...extra,
});

describe('keyVerdict', () => {
  it('a live key of an active tenant with no requirements is VALID', () => {
    expect(keyVerdict(key(), 'active', {}, NOW)).toBe('VALID');
  });

  it.each(['demo', 'trial', 'active'])('a key of a %s tenant verifies', (status) => {
    expect(keyVerdict(key(), status, {}, NOW)).toBe('VALID');
  });

  it.each(['frozen', 'archived'])('a key of a %s tenant is TENANT_INACTIVE', (status) => {
    expect(keyVerdict(key(), status, {}, NOW)).toBe('TENANT_INACTIVE');
  });

  it('a key whose expires_at has passed is EXPIRED, and one expiring later is not', () => {
    expect(keyVerdict(key({ expiresAt: NOW }), 'active', {}, NOW)).toBe('EXPIRED');
    expect(keyVerdict(key({ expiresAt: NOW + 1 }), 'active', {}, NOW)).toBe('VALID');
  });

  it('the first failing rule wins: revoked before expired before tenant before product before scopes', () => {
    const wants = { product: 'sso', required_scopes: ['admin'] };
    expect(keyVerdict(key({ revoked: true, expiresAt: NOW - 1 }), 'frozen', wants, NOW)).toBe('REVOKED');
    expect(keyVerdict(key({ expiresAt: NOW - 1 }), 'frozen', wants, NOW)).toBe('EXPIRED');
    expect(keyVerdict(key(), 'frozen', wants, NOW)).toBe('TENANT_INACTIVE');
    expect(keyVerdict(key(), 'active', wants, NOW)).toBe('WRONG_PRODUCT');
    expect(keyVerdict(key(), 'active', { required_scopes: ['admin'] }, NOW)).toBe('INSUFFICIENT_SCOPE');
  });

  it('a key for one product is WRONG_PRODUCT for another, and a key for no product fits every product', () => {
    expect(keyVerdict(key(), 'active', { product: 'analytics' }, NOW)).toBe('VALID');
    expect(keyVerdict(key(), 'active', { product: 'sso' }, NOW)).toBe('WRONG_PRODUCT');
    expect(keyVerdict(key({ product: null }), 'active', { product: 'sso' }, NOW)).toBe('VALID');
  });

  it('every required scope must be on the key', () => {
    expect(keyVerdict(key(), 'active', { required_scopes: ['read', 'write'] }, NOW)).toBe('VALID');
    expect(keyVerdict(key(), 'active', { required_scopes: [] }, NOW)).toBe('VALID');
    expect(keyVerdict(key(), 'active', { required_scopes: ['read', 'delete'] }, NOW)).toBe('INSUFFICIENT_SCOPE');
  });

  it('malformed requirements fail closed: scopes that are not strings cannot be proven, a non-string product cannot match', () => {
    expect(keyVerdict(key(), 'active', { required_scopes: 'read' }, NOW)).toBe('INSUFFICIENT_SCOPE');
    expect(keyVerdict(key(), 'active', { required_scopes: [1] }, NOW)).toBe('INSUFFICIENT_SCOPE');
    expect(keyVerdict(key({ product: null }), 'active', { product: 7 }, NOW)).toBe('WRONG_PRODUCT');
  });
});
