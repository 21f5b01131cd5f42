import { describe, expect, it, vi } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCacheSweep } from '../../api/cacheSweep.ts';
import { RegistryCache } from '../../domain/reads/registryCache.ts';

const key = { id: 'k', tenantId: 't-1', product: null, scopes: [], keyHash: Buffer.alloc(32), revoked: false, expiresAt: null, lastUsedAt: 0 };

describe('startCacheSweep', () => {
  it('sweeps the registry cache every interval until stopped', async () => {
    let now = 0;
    const cache = new RegistryCache({ ttlMs: 1_000, now: () => now });
    cache.apiKeys.put('trk_a', key, cache.generation());
    now = 2_000;
    const sweep = startCacheSweep(cache, 5);
    await vi.waitFor(() => expect(cache.held().api_key).toBe(0), { timeout: 2_000 });
    sweep.stop();
    cache.apiKeys.put('trk_b', key, cache.generation());
    now = 10_000;
    await sleep(50);
    expect(cache.held().api_key).toBe(1);
  });
});
