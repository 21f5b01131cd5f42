import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { DirectoryUserRecord } from './directoryUserRecord.ts';

/** What a page of a directory's users is narrowed to: one attribute equal to a value (SCIM's `eq`). */
export type DirectoryUserFilter = { attribute: 'userName' | 'externalId'; value: string };

export interface DirectoryUserChange<T> {
  put?: DirectoryUserRecord;
  event?: AuditAppend;
  result: T;
}

/** A directory's SCIM users (store/postgresDirectoryUserRepository.ts); a deleted one is kept until its member is gone. */
export interface DirectoryUserRepository {
  /** A user not deleted, or with `deleted`, also a deleted one. */
  find(directoryId: string, id: string, deleted?: boolean): Promise<DirectoryUserRecord | undefined>;
  page(directoryId: string, filter: DirectoryUserFilter | undefined, startIndex: number, count: number): Promise<{ total: number; users: DirectoryUserRecord[] }>;
  /**
   * Locks the user (or, `id` undefined, the directory's names), lets `decide` (which throws to refuse) say what to
   * write; writes it with its event, the directory's last sync time and the `syncDirectoryUser` hand-off. A userName
   * another user of the directory holds is `conflict`.
   */
  change<T>(directoryId: string, tenantId: string, id: string, meta: RequestMeta, decide: (before: DirectoryUserRecord | undefined, now: Date) => DirectoryUserChange<T>): Promise<{ result: T; handOffs: QueuedActorCommand[] }>;
  /** Links the SCIM user to the provider's user the actor made or found; a user linked already keeps its account. */
  recordUser(directoryId: string, id: string, userId: string, owned: boolean): Promise<void>;
  /** The provider's users the directory's SCIM users are linked to (deleted ones too): what its deletion removes. */
  linkedAccounts(directoryId: string): Promise<{ id: string; userId: string; owned: boolean }[]>;
  /** How many SCIM users, not deleted, the tenant's directories hold together (SCIM_USERS_PER_TENANT_LIMIT). */
  countOfTenant(tenantId: string): Promise<number>;
  /**
   * Hands a `syncDirectoryUser` to the tenant's actor for each user, not deleted, of the directory's groups of these
   * display names (their roles come from the group mapping, which changed).
   */
  resyncGroupMembers(directoryId: string, tenantId: string, displayNames: readonly string[]): Promise<QueuedActorCommand[]>;
  /** Forgets a deleted user once its member is gone. */
  purge(directoryId: string, id: string): Promise<void>;
}
