import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../../domain/apiKeys/createApiKey.ts';
import { verifyApiKey, type VerifyDependencies } from '../../../domain/apiKeys/verifyApiKey.ts';
import { RegistryCache } from '../../../domain/reads/registryCache.ts';
import { generateApiKey } from '../../../domain/apiKeyFormat.ts';
import { InMemoryApiKeyRepository } from '../../support/fakes/inMemoryApiKeyRepository.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const TENANT = '00000000-0000-4000-8000-000000000002';

async function setup(status = 'active', extra: { expires_at?: string } = {}) {
  const keys = new InMemoryApiKeyRepository();
  keys.addTenant(TENANT, status);
  const { record, plaintext } = await createApiKey(inMemoryRegistry({ apiKeys: keys }), { tenant_id: TENANT, name: 'ci', scopes: ['read'], ...extra }, {});
  const cache = new RegistryCache({ ttlMs: 60_000 });
  const marked: string[] = [];
  const deps: VerifyDependencies = {
    keys,
    tenantSnapshot: async (id) => ({ id, slug: 's', plan: 'p', status: keys.tenants.get(id)!, entitlements: [], signIn: { require_sso: false, mfa: 'off' }, ssoAliases: [] }),
    cache,
    lastUsedResolutionSeconds: 60,
    markUsed: (id) => marked.push(id),
  };
  return { keys, record, plaintext, deps, marked };
}

describe('verifyApiKey', () => {
  it('a mistyped key is NOT_FOUND without any read', async () => {
    const { keys, plaintext, deps } = await setup();
    const mistyped = plaintext.slice(0, -9) + (plaintext.at(-9) === 'A' ? 'B' : 'A') + plaintext.slice(-8);
    expect(await verifyApiKey({ key: mistyped }, deps)).toEqual({ valid: false, code: 'NOT_FOUND' });
    expect(keys.verifiableReads).toBe(0);
  });

  it('a well-formed key that does not exist costs one read, then is NOT_FOUND from the negative cache', async () => {
    const { keys, deps } = await setup();
    const { plaintext: unknown } = generateApiKey();
    for (let i = 0; i < 5; i++) expect(await verifyApiKey({ key: unknown }, deps)).toEqual({ valid: false, code: 'NOT_FOUND' });
    expect(keys.verifiableReads).toBe(1);
  });

  it('the negative cache forgets a prefix when it is invalidated, and is off with the cache', async () => {
    const { keys, deps } = await setup();
    const { plaintext: unknown, prefix } = generateApiKey();
    await verifyApiKey({ key: unknown }, deps);
    deps.cache!.invalidateApiKey(prefix);
    await verifyApiKey({ key: unknown }, deps);
    expect(keys.verifiableReads).toBe(2);
    const uncached = { ...deps, cache: new RegistryCache({ ttlMs: 0 }) };
    await verifyApiKey({ key: unknown }, uncached);
    await verifyApiKey({ key: unknown }, uncached);
    expect(keys.verifiableReads).toBe(4);
  });

  it('a known key is judged from the cache after the first read, also once it has expired', async () => {
    const { keys, plaintext, deps } = await setup('active', { expires_at: new Date(Date.now() + 300).toISOString() });
    expect((await verifyApiKey({ key: plaintext }, deps)).code).toBe('VALID');
    expect((await verifyApiKey({ key: plaintext }, deps)).code).toBe('VALID');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await verifyApiKey({ key: plaintext }, deps)).toEqual({ valid: false, code: 'EXPIRED' });
    expect(await verifyApiKey({ key: plaintext }, deps)).toEqual({ valid: false, code: 'EXPIRED' });
    expect(keys.verifiableReads).toBe(1);
  });

  it('a valid answer names the key, its tenant, scopes and expiry, and marks the key used once per resolution', async () => {
    const { record, plaintext, deps, marked } = await setup();
    expect(await verifyApiKey({ key: plaintext }, deps)).toEqual({
      valid: true,
      code: 'VALID',
      key_id: record.id,
      tenant_id: TENANT,
      scopes: ['read'],
      expires_at: null,
    });
    await verifyApiKey({ key: plaintext }, deps);
    expect(marked).toEqual([record.id]);
  });

  it('a refused key tells nothing but its code and is not marked used', async () => {
    const { plaintext, deps, marked } = await setup('frozen');
    expect(await verifyApiKey({ key: plaintext, required_scopes: ['read'] }, deps)).toEqual({ valid: false, code: 'TENANT_INACTIVE' });
    expect(marked).toEqual([]);
  });

  it('a key of the right shape whose secret does not match its stored hash is NOT_FOUND, even when revoked', async () => {
    const { keys, record, plaintext, deps } = await setup();
    keys.keys.get(record.id)!.revokedAt = new Date();
    keys.keys.get(record.id)!.keyHash = Buffer.alloc(32);
    expect(await verifyApiKey({ key: plaintext }, deps)).toEqual({ valid: false, code: 'NOT_FOUND' });
  });
  it('a key and tenant whose entries expired, looked up and missed, still answer from them while the store read fails, within staleIfErrorMs', async () => {
    const { keys, plaintext, deps } = await setup();
    let now = 1_000_000;
    let storeDown = false;
    const down = () => new Error('the store cannot be read');
    const staleDeps: VerifyDependencies = {
      ...deps,
      cache: new RegistryCache({ ttlMs: 30_000, staleIfErrorMs: 60_000, now: () => now }),
      keys: { findVerifiable: (prefix) => (storeDown ? Promise.reject(down()) : keys.findVerifiable(prefix)) },
      tenantSnapshot: (id) => (storeDown ? Promise.reject(down()) : deps.tenantSnapshot(id)),
    };
    expect((await verifyApiKey({ key: plaintext }, staleDeps)).code).toBe('VALID');
    // The tenant's status came with the key; its own entry is made by a verify that finds the key cached.
    expect((await verifyApiKey({ key: plaintext }, staleDeps)).code).toBe('VALID');
    now += 30_001;
    storeDown = true;
    expect((await verifyApiKey({ key: plaintext }, staleDeps)).code).toBe('VALID');
    expect((await verifyApiKey({ key: plaintext }, staleDeps)).code).toBe('VALID');
    now += 30_000;
    await expect(verifyApiKey({ key: plaintext }, staleDeps)).rejects.toThrow('the store cannot be read');
  });
});
