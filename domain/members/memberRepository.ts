import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { DirectoryUser } from './userDirectory.ts';
import type { MemberRecord, MemberStatus } from './memberRecord.ts';

/** What a page of a tenant's members is narrowed to. */
export interface MemberListFilter {
  /** Only members holding the role of this slug. */
  role?: string;
  status?: MemberStatus;
  /** Lower-cased prefix of the e-mail or the name. */
  prefix?: string;
}

/** Where a page of the listing continues: after this member in (lower-cased e-mail, user id) order. */
export interface MemberListPosition {
  /** The member's e-mail as the store lower-cases it. */
  email: string;
  userId: string;
}

/** A member as the whole listing holds it (domain/members/tenantMemberList.ts), with what its filters compare, lowered by the store. */
export interface ListedMember {
  member: MemberRecord;
  position: MemberListPosition;
  /** The member's name as the store lower-cases it (the q= filter's other half). */
  lowerName: string;
}

/** What a change of one member is judged by, read under the lock of the tenant's members. */
export interface MemberChangeFacts {
  /** The member before the change; undefined when the user is not a member of the tenant. */
  member: MemberRecord | undefined;
  /** How many members the tenant has, this one included. */
  members: number;
  /** How many of them are active and hold the tenant's administrator role (TENANT_ADMIN_ROLE), this one included. */
  activeAdmins: number;
  /**
   * The roles the change names that the tenant has (its own or shared ones), by slug, with their permissions (sorted);
   * locked until the change commits, so none is deleted meanwhile.
   */
  knownRoles: ReadonlyMap<string, readonly string[]>;
}

/**
 * What a change of one member writes, decided by a domain rule and written by the repository in one transaction; a
 * change that writes the member also hands a `syncMember` to the tenant's actor in that transaction.
 */
export interface MemberChange<T> {
  /** The member as it is to be stored; its roles replace the stored ones. */
  put?: MemberRecord;
  /** The member goes, its roles with it. */
  remove?: boolean;
  event?: AuditAppend;
  result: T;
}

/** What a committed change of one member wrote, for the service to tell what follows it. */
export interface MemberChangeWritten<T> {
  result: T;
  /** The `syncMember` hand-off written with the change; none when nothing was written. */
  handOffs: QueuedActorCommand[];
}

/**
 * The members' store (store/postgresMemberRepository.ts). Every change runs with its audit event and its hand-off to
 * the tenant's actor (a `syncMember` command in the outbox) in one transaction.
 */
export interface MemberRepository {
  /** One member; undefined when the user is not a member of the tenant. */
  find(tenantId: string, userId: string): Promise<MemberRecord | undefined>;
  /** Every tenant's record of the user (the claims path, the memberships endpoint), by tenant id. */
  ofUser(userId: string): Promise<MemberRecord[]>;
  /** Every member of the tenant (the actor's claims push), by user id. */
  allOfTenant(tenantId: string): Promise<MemberRecord[]>;
  /**
   * A page of the tenant's members in (lower-cased e-mail, user id) order, after `after` (the previous page's last
   * member); undefined when there is no such tenant.
   */
  page(tenantId: string, filter: MemberListFilter, after: MemberListPosition | undefined, limit: number): Promise<{ member: MemberRecord; position: MemberListPosition }[] | undefined>;
  /**
   * Every member of the tenant in the page's order, for the cached listing: `tooMany` when the tenant has more than
   * `atMost` (their rows are not read), undefined when there is no such tenant.
   */
  listing(tenantId: string, atMost: number): Promise<ListedMember[] | 'tooMany' | undefined>;
  /**
   * Locks the tenant's members (one change of a tenant's members at a time, so two cannot both pass the last-admin
   * rule) and the `namedRoles` the tenant has, lets `decide` (a pure rule, which throws to refuse) say what to write,
   * and writes it with its audit event and the `syncMember` hand-off in one transaction; a rule that throws or writes
   * nothing leaves no trace. Undefined when there is no such tenant.
   */
  change<T>(
    tenantId: string,
    userId: string,
    meta: RequestMeta,
    namedRoles: string[],
    decide: (facts: MemberChangeFacts, now: Date) => MemberChange<T>,
  ): Promise<MemberChangeWritten<T> | undefined>;
}
