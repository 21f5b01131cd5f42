import type { CatalogProductRecord } from '../domain/catalog/catalogProductRecord.ts';
import type { CatalogRepository } from '../domain/catalog/catalogRepository.ts';
import { nativePool } from './nativePool.ts';
import { ReadBatcher } from './readBatcher.ts';
import type { Orm } from './orm.ts';

const CATALOG_COLUMNS = 'key, name, description, plans_required, demo_url, supports_trial, position';

interface CatalogProductRow {
  key: string;
  name: string;
  description: string;
  plans_required: string[];
  demo_url: string | null;
  supports_trial: boolean;
  position: number;
}

const catalogRowToRecord = (r: CatalogProductRow): CatalogProductRecord => ({
  key: r.key,
  name: r.name,
  description: r.description,
  plansRequired: r.plans_required,
  demoUrl: r.demo_url,
  supportsTrial: r.supports_trial,
  position: r.position,
});

/** The catalog's reads as named statements on the pool: rows straight to records, no EntityManager per call. */
export class PostgresCatalogRepository implements CatalogRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  /** The requests that arrive together share one read of the catalog (the same for all of them). */
  async list(): Promise<CatalogProductRecord[]> {
    return (await this.#whole.load('catalog')) ?? [];
  }

  readonly #whole = new ReadBatcher<'catalog', CatalogProductRecord[]>(async () => {
    const { rows } = await (await nativePool(this.#orm)).query<CatalogProductRow>({
      name: 'catalog_products',
      text: `select ${CATALOG_COLUMNS} from catalog_products order by position`,
      values: [],
    });
    return new Map([['catalog', rows.map(catalogRowToRecord)]]);
  });

  async find(key: string): Promise<CatalogProductRecord | undefined> {
    const { rows } = await (await nativePool(this.#orm)).query<CatalogProductRow>({
      name: 'catalog_product_by_key',
      text: `select ${CATALOG_COLUMNS} from catalog_products where key = $1`,
      values: [key],
    });
    return rows[0] && catalogRowToRecord(rows[0]);
  }
}
