import type { CatalogProductRecord } from '../domain/catalog/catalogProductRecord.ts';
import type { CatalogRepository, ProductClientsChange, ProductClientsFacts } from '../domain/catalog/catalogRepository.ts';
import type { QueuedActorCommand } from '../domain/changeEffects/changeEffects.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { ProductClient, SignInFailMode } from '../domain/signIn/productClients.ts';
import { conflict } from '../domain/errors.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import { enqueueActorCommands } from './postgresActorOutbox.ts';
import { ReadBatcher } from './readBatcher.ts';
import type { Orm } from './orm.ts';

const CATALOG_COLUMNS = `key, name, description, plans_required, demo_url, supports_trial, position, sign_in_fail,
  array(select c.client_id from product_clients c where c.product = catalog_products.key order by c.client_id collate "C") as client_ids`;

interface CatalogProductRow {
  key: string;
  name: string;
  description: string;
  plans_required: string[];
  demo_url: string | null;
  supports_trial: boolean;
  position: number;
  sign_in_fail: SignInFailMode;
  client_ids: string[];
}

const catalogRowToRecord = (r: CatalogProductRow): CatalogProductRecord => ({
  key: r.key,
  name: r.name,
  description: r.description,
  plansRequired: r.plans_required,
  demoUrl: r.demo_url,
  supportsTrial: r.supports_trial,
  position: r.position,
  clientIds: r.client_ids,
  fail: r.sign_in_fail,
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

  /** The claims path's read when its cache misses: one statement, shared by the requests that arrive together. */
  async clients(): Promise<ProductClient[]> {
    return (await this.#clients.load('clients')) ?? [];
  }

  readonly #clients = new ReadBatcher<'clients', ProductClient[]>(async () => {
    const { rows } = await (await nativePool(this.#orm)).query<{ client_id: string; product: string; sign_in_fail: SignInFailMode }>({
      name: 'product_clients_all',
      text: `select c.client_id, c.product, p.sign_in_fail from product_clients c join catalog_products p on p.key = c.product order by c.client_id`,
      values: [],
    });
    return new Map([['clients', rows.map((r) => ({ clientId: r.client_id, product: r.product, fail: r.sign_in_fail }))]]);
  });

  changeClients<T>(
    key: string,
    asked: readonly string[],
    meta: RequestMeta,
    decide: (facts: ProductClientsFacts) => ProductClientsChange<T>,
  ): Promise<{ result: T; changed: boolean; handOffs: QueuedActorCommand[] } | undefined> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [row] } = await sql.query<CatalogProductRow>({
        name: 'catalog_product_lock',
        text: `select ${CATALOG_COLUMNS} from catalog_products where key = $1 for update`,
        values: [key],
      });
      if (!row) return undefined;
      const { rows: taken } = await sql.query<{ client_id: string; product: string }>({
        name: 'product_clients_taken',
        text: `select client_id, product from product_clients where client_id = any($1::text[]) and product <> $2 order by client_id`,
        values: [asked, key],
      });
      const change = decide({ product: catalogRowToRecord(row), takenByOthers: new Map(taken.map((t) => [t.client_id, t.product])) });
      if (!change.put) return { result: change.result, changed: false, handOffs: [] };
      await sql.query({
        name: 'product_clients_trim',
        text: `delete from product_clients where product = $1 and not (client_id = any($2::text[]))`,
        values: [key, change.put.clientIds],
      });
      // A client another product took since the read above fails on the primary key: a conflict, and nothing is written.
      await sql
        .query({
          name: 'product_clients_add',
          text: `insert into product_clients (client_id, product)
                 select c, $1::text from unnest($2::text[]) as c where not exists (select 1 from product_clients p where p.client_id = c and p.product = $1::text)`,
          values: [key, change.put.clientIds],
        })
        .catch((error: unknown) => {
          if ((error as { code?: string }).code === '23505') throw conflict('a client of another product (taken meanwhile)');
          throw error;
        });
      await sql.query({ name: 'catalog_product_fail', text: `update catalog_products set sign_in_fail = $2 where key = $1`, values: [key, change.put.fail] });
      if (change.event) await appendAuditEvent(sql, change.event, meta);
      const { rows: tenants } = await sql.query<{ id: string }>({
        name: 'tenants_not_archived',
        text: `select id from tenants where status <> 'archived'`,
        values: [],
      });
      const handOffs = await enqueueActorCommands(sql, tenants.map((t) => t.id), { kind: 'pushClaims' });
      return { result: change.result, changed: true, handOffs };
    });
  }
}
