import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';
import type { MemberRecord } from '../members/memberRecord.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { InvitationRecord, InvitationState } from './invitationRecord.ts';

/** What a page of a tenant's invitations is narrowed to. */
export interface InvitationListFilter {
  state?: InvitationState;
  /** Lower-cased address. */
  email?: string;
}

/** Where a page continues: after this invitation in (created_at, id) order, newest first. */
export interface InvitationListPosition {
  createdAt: Date;
  id: string;
}

/** An invitation of a listing page: its position, and its Invitation JSON text (toInvitation's document, byte for byte). */
export interface ListedInvitation extends InvitationListPosition {
  json: string;
}

/** Which invitation a change is about. */
export type InvitationTarget =
  /** One invitation by its id. */
  | { by: 'id'; id: string }
  /** The pending invitation of this address to this tenant, if any (a new invitation is judged against it). */
  | { by: 'email'; tenantId: string; email: string };

/** What a change of an invitation is judged by, read under the lock of its tenant's members. */
export interface InvitationChangeFacts {
  /** The invitation targeted; undefined when there is none. */
  invitation: InvitationRecord | undefined;
  /** The tenant the change is in (the invitation's, or the target's). */
  tenantId: string;
  /**
   * The tenant's member the invitation is about: the member with the invitation's user id, or (no user yet) the
   * member holding the e-mail of the invitation or of the target.
   */
  member: MemberRecord | undefined;
  /**
   * The roles the change names and the invitation's own that the tenant has (its own or shared ones), by slug, with
   * their permissions (sorted); locked until the change commits.
   */
  knownRoles: ReadonlyMap<string, readonly string[]>;
  /** The tenant's pending invitations. */
  pendingOfTenant: number;
  /** The tenant's sends in the last INVITATION_SENDS_WINDOW_MS (every `send` a change asked for). */
  sentInWindow: number;
}

/** What a change writes, decided by a domain rule and written by the repository in one transaction. */
export interface InvitationChange<T> {
  /** The invitation as it is to be stored (inserted when new). */
  invitation?: InvitationRecord;
  /** The member as it is to be stored, or removed (its roles with it); each hands a `syncMember` to the tenant's actor. */
  member?: { put: MemberRecord } | { remove: MemberRecord };
  events?: AuditAppend[];
  /** Hand the invitation's send to the tenant's actor (`sendInvitation`), counted among the tenant's sends. */
  send?: boolean;
  result: T;
}

/** What a committed change wrote, for the service to tell what follows it. */
export interface InvitationChangeWritten<T> {
  result: T;
  /** The `sendInvitation` hand-off, when the change asked for one. */
  send?: QueuedActorCommand;
  /** The `syncMember` hand-off of a member the change wrote or removed. */
  memberSync?: QueuedActorCommand;
}

/**
 * The invitations' store (store/postgresInvitationRepository.ts). Changes take the lock of the tenant's members, so
 * an invitation's acceptance, revocation or expiry and any member change of the tenant happen one at a time.
 */
export interface InvitationRepository {
  find(id: string): Promise<InvitationRecord | undefined>;
  /** A page newest first, after `after`; undefined when there is no such tenant. */
  page(tenantId: string, filter: InvitationListFilter, after: InvitationListPosition | undefined, limit: number): Promise<ListedInvitation[] | undefined>;
  /** The pending invitations of the tenant with their expiries (the actor's timers). */
  pendingExpiries(tenantId: string): Promise<{ id: string; expiresAt: Date }[]>;
  /**
   * Locks the tenant's members, reads the facts, lets `decide` (a pure rule, which throws to refuse) say what to
   * write, and writes it with its audit events and hand-offs in one transaction. Undefined when the target's tenant
   * does not exist, or an invitation targeted by id does not.
   */
  change<T>(
    target: InvitationTarget,
    meta: RequestMeta,
    namedRoles: string[],
    decide: (facts: InvitationChangeFacts, now: Date) => InvitationChange<T>,
  ): Promise<InvitationChangeWritten<T> | undefined>;
}
