import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { DirectoryCounts, DirectoryRecord } from './directoryRecord.ts';

export interface DirectoryChange<T> {
  put?: DirectoryRecord;
  remove?: boolean;
  event?: AuditAppend;
  result: T;
}

/** Tenants' SCIM directories (store/postgresDirectoryRepository.ts). */
export interface DirectoryRepository {
  find(id: string): Promise<(DirectoryRecord & DirectoryCounts) | undefined>;
  /** The tenant's directories, oldest first; undefined when there is no such tenant. */
  ofTenant(tenantId: string): Promise<(DirectoryRecord & DirectoryCounts)[] | undefined>;
  /**
   * Locks the directory (or, `new`, the tenant's row, under which a new one is counted), counts the tenant's
   * directories (`ofTenant`), lets `decide` say what to write, writes it with its event.
   */
  change<T>(
    target: { by: 'id'; id: string } | { by: 'new'; tenantId: string },
    meta: RequestMeta,
    decide: (directory: DirectoryRecord | undefined, now: Date, ofTenant: number) => DirectoryChange<T>,
  ): Promise<{ result: T } | undefined>;
}
