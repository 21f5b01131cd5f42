import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../../domain/apiKeys/createApiKey.ts';
import { rotateApiKey } from '../../../domain/apiKeys/rotateApiKey.ts';
import { revokeApiKey } from '../../../domain/apiKeys/revokeApiKey.ts';
import { AppError } from '../../../domain/errors.ts';
import { apiKeyListing } from '../../../domain/reads/listingNames.ts';
import { InMemoryApiKeyRepository } from '../../support/fakes/inMemoryApiKeyRepository.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const meta = {};

async function setup(extra: { expires_at?: string } = {}) {
  const keys = new InMemoryApiKeyRepository();
  keys.addTenant(TENANT);
  const registry = inMemoryRegistry({ apiKeys: keys });
  const { record } = await createApiKey(registry, { tenant_id: TENANT, name: 'ci', product: 'analytics', scopes: ['read'], ...extra }, meta);
  return { keys, old: record, registry };
}

const conflictOf = (promise: Promise<unknown>) =>
  expect(promise).rejects.toSatisfy((e) => e instanceof AppError && e.code === 'conflict');

describe('rotateApiKey', () => {
  it('issues a successor with the same tenant, product, scopes and name and a new secret', async () => {
    const { keys, old, registry } = await setup();
    const rotation = await rotateApiKey(registry, old.id, 60, meta);
    expect(rotation.successor).toMatchObject({ tenantId: TENANT, product: 'analytics', scopes: ['read'], name: 'ci', rotatedFrom: old.id });
    expect(rotation.successor.prefix).not.toBe(old.prefix);
    expect(rotation.plaintext.startsWith(`${rotation.successor.prefix}_`)).toBe(true);
    expect(rotation.oldPrefix).toBe(old.prefix);
  });

  it('ends the old key at the end of the grace period, and at once for grace 0', async () => {
    const { keys, old, registry } = await setup();
    const before = Date.now();
    await rotateApiKey(registry, old.id, 3600, meta);
    const end = keys.keys.get(old.id)!.expiresAt!.getTime();
    expect(end).toBeGreaterThanOrEqual(before + 3600_000);
    expect(end).toBeLessThanOrEqual(Date.now() + 3600_000);

    const second = await setup();
    await rotateApiKey(second.registry, second.old.id, 0, meta);
    expect(second.keys.keys.get(second.old.id)!.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('never extends an old key that expires before the grace period ends, and the successor keeps that expiry', async () => {
    const expires = new Date(Date.now() + 60_000).toISOString();
    const { keys, old, registry } = await setup({ expires_at: expires });
    const rotation = await rotateApiKey(registry, old.id, 86_400, meta);
    expect(keys.keys.get(old.id)!.expiresAt!.toISOString()).toBe(expires);
    expect(rotation.successor.expiresAt!.toISOString()).toBe(expires);
  });

  it('appends api_key.rotated naming the new key and the grace period', async () => {
    const { keys, old, registry } = await setup();
    const rotation = await rotateApiKey(registry, old.id, 30, meta);
    expect(keys.events.at(-1)).toMatchObject({
      action: 'api_key.rotated',
      target_id: old.id,
      metadata: { new_key_id: rotation.successor.id, grace_seconds: 30, prefix: old.prefix },
    });
  });

  it('refuses a revoked key, an expired key and a key already rotated, and allows rotating the successor', async () => {
    const revoked = await setup();
    await revokeApiKey(revoked.registry, revoked.old.id, meta);
    await conflictOf(rotateApiKey(revoked.registry, revoked.old.id, 60, meta));

    const expired = await setup();
    await rotateApiKey(expired.registry, expired.old.id, 0, meta);
    await conflictOf(rotateApiKey(expired.registry, expired.old.id, 60, meta));

    const { keys, old, registry } = await setup();
    const first = await rotateApiKey(registry, old.id, 3600, meta);
    await conflictOf(rotateApiKey(registry, old.id, 3600, meta));
    const second = await rotateApiKey(registry, first.successor.id, 3600, meta);
    expect(second.successor.rotatedFrom).toBe(first.successor.id);
  });

  it('an unknown key is not_found', async () => {
    const { registry } = await setup();
    await expect(rotateApiKey(registry, '00000000-0000-4000-8000-00000000dead', 60, meta)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('what follows a key change', () => {
  it('a rotation makes this replica forget the old key at once', async () => {
    const { old, registry } = await setup();
    await rotateApiKey(registry, old.id, 60, meta);
    expect(registry.effects.staleApiKeys).toEqual([old.prefix]);
  });

  it('a revocation makes this replica forget the key at once, also when repeated', async () => {
    const { old, registry } = await setup();
    await revokeApiKey(registry, old.id, meta);
    await revokeApiKey(registry, old.id, meta);
    expect(registry.effects.staleApiKeys).toEqual([old.prefix, old.prefix]);
  });

  it('a refused rotation changes nothing and has no effect', async () => {
    const { old, registry } = await setup();
    await revokeApiKey(registry, old.id, meta);
    await conflictOf(rotateApiKey(registry, old.id, 60, meta));
    expect(registry.effects.staleApiKeys).toEqual([old.prefix]);
    expect(registry.effects.staleListings).toEqual([apiKeyListing(TENANT), apiKeyListing(TENANT)]);
  });

  it("a creation, a rotation and a revocation each make this replica forget the tenant's key listing at once", async () => {
    const { old, registry } = await setup();
    expect(registry.effects.staleListings).toEqual([apiKeyListing(TENANT)]);
    await rotateApiKey(registry, old.id, 60, meta);
    await revokeApiKey(registry, old.id, meta);
    expect(registry.effects.staleListings).toEqual([apiKeyListing(TENANT), apiKeyListing(TENANT), apiKeyListing(TENANT)]);
  });
});

describe('createApiKey', () => {
  it('refuses an expires_at that is not in the future', async () => {
    const keys = new InMemoryApiKeyRepository();
    keys.addTenant(TENANT);
    await expect(createApiKey(inMemoryRegistry({ apiKeys: keys }), { tenant_id: TENANT, name: 'x', expires_at: new Date(Date.now() - 1000).toISOString() }, meta)).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(keys.keys.size).toBe(0);
  });

  it('an unknown tenant is not_found and writes nothing', async () => {
    const keys = new InMemoryApiKeyRepository();
    await expect(createApiKey(inMemoryRegistry({ apiKeys: keys }), { tenant_id: TENANT, name: 'x' }, meta)).rejects.toMatchObject({ code: 'not_found' });
    expect(keys.events).toHaveLength(0);
  });
});
