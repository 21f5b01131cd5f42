import type { CatalogProductRecord } from '../domain/catalog/catalogProductRecord.ts';
import type { CatalogRepository } from '../domain/catalog/catalogRepository.ts';
import { CatalogProductEntity } from './entities/catalogProductEntity.ts';
import type { Orm } from './orm.ts';
import { toCatalogProductRecord } from './entityRecords.ts';

export class PostgresCatalogRepository implements CatalogRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async list(): Promise<CatalogProductRecord[]> {
    return (await this.#orm.em.fork().find(CatalogProductEntity, {}, { orderBy: { position: 'asc' } })).map(toCatalogProductRecord);
  }

  async find(key: string): Promise<CatalogProductRecord | undefined> {
    const product = await this.#orm.em.fork().findOne(CatalogProductEntity, { key });
    return product ? toCatalogProductRecord(product) : undefined;
  }
}
