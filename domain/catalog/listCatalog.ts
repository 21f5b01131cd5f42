import type { EntityManager } from '@mikro-orm/postgresql';
import { CatalogProductEntity, type CatalogProductRecord } from '../entities/catalogProductEntity.ts';
import { notFound } from '../errors.ts';

export const listCatalog = (em: EntityManager) => em.find(CatalogProductEntity, {}, { orderBy: { position: 'asc' } });

export async function findCatalogProduct(em: EntityManager, key: string): Promise<CatalogProductRecord> {
  const product = await em.findOne(CatalogProductEntity, { key });
  if (!product) throw notFound(`product "${key}"`);
  return product;
}
