import { notFound } from '../errors.ts';
import type { CatalogProductRecord } from './catalogProductRecord.ts';
import type { CatalogRepository } from './catalogRepository.ts';

export async function findCatalogProduct(catalog: CatalogRepository, key: string): Promise<CatalogProductRecord> {
  const product = await catalog.find(key);
  if (!product) throw notFound(`product "${key}"`);
  return product;
}
