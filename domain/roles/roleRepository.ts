import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { PermissionRecord } from './permissionRecord.ts';
import type { RoleRecord } from './roleRecord.ts';

/** A permission read under its row lock, with how many roles grant it. */
export interface LockedPermission extends PermissionRecord {
  grantedByRoles: number;
}

/** What a new role is judged against, read under a lock on its slug so that two creations of one slug take turns. */
export interface RoleCreationFacts {
  /** Whether the role's tenant exists (true for a shared role). */
  tenantExists: boolean;
  /** The tenant of each role that already has the slug (null: a shared role). */
  slugTakenIn: (string | null)[];
  /** Which of the permissions asked for exist, locked until the role is written so none is deleted meanwhile. */
  knownPermissions: ReadonlySet<string>;
}

/** A role read under its row lock, with how many members hold it and how many tenants have it as default_role. */
export interface LockedRole extends RoleRecord {
  heldByMembers: number;
  /** Tenants whose settings name it as default_role (a shared role: any tenant's; a tenant's role: its tenant's). */
  defaultOfTenants: number;
}

/** What a change of one role writes, decided by a domain rule and written by the repository in one transaction. */
export interface RoleChange<T> {
  update?: Pick<RoleRecord, 'name' | 'description' | 'permissions' | 'updatedAt'>;
  remove?: boolean;
  event?: AuditAppend;
  /** What the role grants changed: queue a claims push to every tenant where a member holds it, with the change. */
  pushClaims?: boolean;
  result: T;
}

/** What a committed change of one role wrote, for the service to tell what follows it. */
export interface RoleChangeWritten<T> {
  result: T;
  /** Whether anything was written (a PATCH that changes nothing writes nothing). */
  changed: boolean;
  /** The claims pushes written with the change, one per tenant where a member holds the role. */
  handOffs: QueuedActorCommand[];
}

/** The roles and permissions' store (store/postgresRoleRepository.ts). */
export interface RoleRepository {
  /** Every permission, by slug. */
  listPermissions(): Promise<PermissionRecord[]>;
  /** Inserts the permission with its audit event; false (nothing written) when one of that slug exists. */
  insertPermission(permission: PermissionRecord, event: AuditAppend, meta: RequestMeta): Promise<boolean>;
  /**
   * Locks the permission, lets `decide` (a pure rule, which throws to refuse) say its deletion's audit event, and
   * deletes it with the event in one transaction. False when there is no such permission.
   */
  removePermission(slug: string, meta: RequestMeta, decide: (permission: LockedPermission) => AuditAppend): Promise<boolean>;
  /** The shared roles and, with `tenantId`, that tenant's, shared first, each by slug; undefined when there is no such tenant. */
  listRoles(tenantId: string | undefined): Promise<RoleRecord[] | undefined>;
  /**
   * Under a lock on the slug, reads what `decide` (a pure rule, which throws to refuse) judges the new role by, and
   * writes the role it returns with its audit event in one transaction.
   */
  insertRole(
    asked: { slug: string; tenantId: string | null; permissions: string[] },
    meta: RequestMeta,
    decide: (facts: RoleCreationFacts, now: Date) => { role: RoleRecord; event: AuditAppend },
  ): Promise<RoleRecord>;
  /**
   * Locks the role and the `namedPermissions` that exist, lets `decide` (a pure rule) say what to write, and writes
   * it with its audit event and, when the rule says so, the claims pushes to the tenants whose members hold the role,
   * in one transaction; a rule that throws writes nothing. Undefined when there is no such role.
   */
  changeRole<T>(
    id: string,
    meta: RequestMeta,
    namedPermissions: string[],
    decide: (role: LockedRole, knownPermissions: ReadonlySet<string>, now: Date) => RoleChange<T>,
  ): Promise<RoleChangeWritten<T> | undefined>;
}
