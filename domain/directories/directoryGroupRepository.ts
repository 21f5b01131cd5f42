import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { DirectoryGroupRecord } from './directoryGroupRecord.ts';

export type DirectoryGroupFilter = { attribute: 'displayName' | 'externalId'; value: string };

export interface DirectoryGroupChange<T> {
  put?: DirectoryGroupRecord;
  remove?: boolean;
  event?: AuditAppend;
  result: T;
}

/** A directory's SCIM groups (store/postgresDirectoryGroupRepository.ts). */
export interface DirectoryGroupRepository {
  find(directoryId: string, id: string): Promise<DirectoryGroupRecord | undefined>;
  page(directoryId: string, filter: DirectoryGroupFilter | undefined, startIndex: number, count: number): Promise<{ total: number; groups: DirectoryGroupRecord[] }>;
  /** The display names of the groups the SCIM user is in (its roles come from them). */
  namesOfMember(directoryId: string, scimUserId: string): Promise<string[]>;
  /**
   * Locks the group, lets `decide` say what to write, writes it with its event and a `syncDirectoryUser` for each user
   * whose groups changed (those in the group before or after). A displayName another group has is `conflict`.
   */
  change<T>(directoryId: string, tenantId: string, id: string, meta: RequestMeta, decide: (before: DirectoryGroupRecord | undefined, now: Date) => DirectoryGroupChange<T>): Promise<{ result: T; handOffs: QueuedActorCommand[] }>;
}
