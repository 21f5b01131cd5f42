import type { CatalogProductRecord } from './catalogProductRecord.ts';

/** The self-service catalog (store/postgresCatalogRepository.ts). */
export interface CatalogRepository {
  /** In catalog order. */
  list(): Promise<CatalogProductRecord[]>;
  find(key: string): Promise<CatalogProductRecord | undefined>;
}
