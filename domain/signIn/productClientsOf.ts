import type { CatalogRepository } from '../catalog/catalogRepository.ts';
import type { RegistryCache } from '../reads/registryCache.ts';
import { readOrStale } from '../reads/readOrStale.ts';
import type { ProductClients } from './productClients.ts';

/**
 * Every product's clients, from the registry cache when it holds them (a change of the catalog's clients notifies
 * `c:`, which forgets them on every replica), else from one read, which then fills the cache.
 */
export async function productClientsOf(catalog: Pick<CatalogRepository, 'clients'>, cache?: RegistryCache): Promise<ProductClients> {
  const cached = cache?.productClients.get();
  if (cached) return cached;
  const generation = cache?.generation() ?? 0;
  const read = await readOrStale(async () => new Map((await catalog.clients()).map((client) => [client.clientId, client])), () => cache?.productClients.stale());
  if (!read.stale) cache?.productClients.put(read.value, generation);
  return read.value;
}
