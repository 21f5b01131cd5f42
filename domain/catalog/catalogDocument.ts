import { keptAnswer } from '../reads/keptAnswer.ts';
import type { RegistryCache } from '../reads/registryCache.ts';
import type { CatalogRepository } from './catalogRepository.ts';
import { toCatalogEntry } from './catalogEntryResponse.ts';

/**
 * GET /v1/catalog as the CatalogList body's JSON (as keptAnswer keeps it), from the registry cache when it holds it: any statement
 * that changes the catalog's table notifies `c:` (migration 32), which forgets it on every replica.
 */
export async function catalogDocument(catalog: CatalogRepository, cache: RegistryCache | undefined): Promise<string | Buffer> {
  const held = cache?.documents.catalog();
  if (held !== undefined) return held;
  const generation = cache?.generation() ?? 0;
  const json = keptAnswer(JSON.stringify({ items: (await catalog.list()).map(toCatalogEntry) }));
  cache?.documents.putCatalog(json, generation);
  return json;
}
