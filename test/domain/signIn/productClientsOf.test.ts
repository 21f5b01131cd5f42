import { describe, expect, it } from 'vitest';
import { RegistryCache } from '../../../domain/reads/registryCache.ts';
import type { ProductClient } from '../../../domain/signIn/productClients.ts';
import { productClientsOf } from '../../../domain/signIn/productClientsOf.ts';

/** The catalog's read of every product's clients, counting reads; made to fail on request. */
function catalog(clients: ProductClient[]) {
  const state = { reads: 0, failing: false };
  return {
    state,
    clients: async () => {
      state.reads += 1;
      if (state.failing) throw new Error('store unreachable');
      return clients;
    },
  };
}

const REPORTS: ProductClient = { clientId: 'reports', product: 'analytics', fail: 'closed' };

describe('productClientsOf', () => {
  it('reads the clients once, then answers from the cache until the catalog changes', async () => {
    const cache = new RegistryCache({ ttlMs: 60_000 });
    const store = catalog([REPORTS]);
    expect((await productClientsOf(store, cache)).get('reports')).toEqual(REPORTS);
    await productClientsOf(store, cache);
    expect(store.state.reads).toBe(1);
    cache.invalidateCatalog();
    await productClientsOf(store, cache);
    expect(store.state.reads).toBe(2);
  });

  it('answers from a recent copy while the store cannot be read, and fails without one', async () => {
    let now = 0;
    const cache = new RegistryCache({ ttlMs: 1_000, staleIfErrorMs: 60_000, now: () => now });
    const store = catalog([REPORTS]);
    await productClientsOf(store, cache);
    now = 5_000;
    store.state.failing = true;
    expect((await productClientsOf(store, cache)).get('reports')).toEqual(REPORTS);
    now = 120_000;
    await expect(productClientsOf(store, cache)).rejects.toThrow('store unreachable');
  });
});
