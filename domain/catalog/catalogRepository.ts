import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { ProductClient, SignInFailMode } from '../signIn/productClients.ts';
import type { CatalogProductRecord } from './catalogProductRecord.ts';

/** What a change of a product's clients is judged by, read under the product's lock. */
export interface ProductClientsFacts {
  product: CatalogProductRecord;
  /** Of the clients asked for, those another product has, with that product's key. */
  takenByOthers: ReadonlyMap<string, string>;
}

/** What a change of a product's clients writes, decided by a domain rule; nothing to put: nothing written. */
export interface ProductClientsChange<T> {
  put?: { clientIds: string[]; fail: SignInFailMode };
  event?: AuditAppend;
  result: T;
}

/** The self-service catalog (store/postgresCatalogRepository.ts). */
export interface CatalogRepository {
  /** In catalog order. */
  list(): Promise<CatalogProductRecord[]>;
  find(key: string): Promise<CatalogProductRecord | undefined>;
  /** Every product's clients (what a sign-in's client is judged by). */
  clients(): Promise<ProductClient[]>;
  /**
   * Locks the product, lets `decide` (a pure rule, which throws to refuse) say what to write, and writes the product's
   * clients and fail mode with the audit event and a `pushClaims` for the actor of every tenant that is not archived
   * (each user's pushed attributes name the clients), in one transaction. Undefined when there is no such product.
   */
  changeClients<T>(
    key: string,
    asked: readonly string[],
    meta: RequestMeta,
    decide: (facts: ProductClientsFacts) => ProductClientsChange<T>,
  ): Promise<{ result: T; changed: boolean; handOffs: QueuedActorCommand[] } | undefined>;
}
