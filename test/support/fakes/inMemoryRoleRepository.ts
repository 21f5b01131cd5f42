import { randomUUID } from 'node:crypto';
import type { PermissionRecord } from '../../../domain/roles/permissionRecord.ts';
import type { RoleRecord } from '../../../domain/roles/roleRecord.ts';
import type { LockedPermission, LockedRole, RoleChange, RoleChangeWritten, RoleCreationFacts, RoleRepository } from '../../../domain/roles/roleRepository.ts';
import type { AuditAppend } from '../../../domain/schemas/audit.ts';

const BUILT_IN_PERMISSIONS = ['members:manage', 'sso:manage', 'directory:manage', 'audit:read'];

/**
 * The roles and permissions' store in memory, for unit tests of the domain rules: it starts as the migration leaves
 * the database (the built-in permissions, IT_ADMIN and MEMBER), knows the tenants it is told of, and lets a test say
 * how many members hold a role.
 */
export class InMemoryRoleRepository implements RoleRepository {
  readonly permissions = new Map<string, PermissionRecord>();
  readonly roles = new Map<string, RoleRecord>();
  readonly tenants = new Set<string>();
  readonly holders = new Map<string, number>();
  /** How many tenants have each role (by id) as default_role, as a test says. */
  readonly defaultOf = new Map<string, number>();
  readonly events: AuditAppend[] = [];
  /** The tenant of each member holding the role (a member repository built on this one answers it); `holders` overrides its count. */
  membersHolding: (role: RoleRecord) => string[] = () => [];
  #handOffs = 0;

  constructor() {
    const now = new Date();
    for (const slug of BUILT_IN_PERMISSIONS) this.permissions.set(slug, { slug, description: slug, builtIn: true, createdAt: now });
    for (const [slug, permissions] of [['IT_ADMIN', [...BUILT_IN_PERMISSIONS].sort()], ['MEMBER', []]] as const) {
      const id = randomUUID();
      this.roles.set(id, { id, slug, name: slug, description: '', permissions: [...permissions], tenantId: null, builtIn: true, createdAt: now, updatedAt: now });
    }
  }

  addTenant(id: string): void {
    this.tenants.add(id);
  }

  roleOfSlug(slug: string, tenantId: string | null = null): RoleRecord {
    const role = [...this.roles.values()].find((r) => r.slug === slug && r.tenantId === tenantId);
    if (!role) throw new Error(`no role ${slug}`);
    return role;
  }

  async listPermissions(): Promise<PermissionRecord[]> {
    return [...this.permissions.values()].sort((a, b) => (a.slug < b.slug ? -1 : 1)).map((p) => structuredClone(p));
  }

  async insertPermission(permission: PermissionRecord, event: AuditAppend): Promise<boolean> {
    if (this.permissions.has(permission.slug)) return false;
    this.permissions.set(permission.slug, structuredClone(permission));
    this.events.push(event);
    return true;
  }

  async removePermission(slug: string, _meta: unknown, decide: (permission: LockedPermission) => AuditAppend): Promise<boolean> {
    const permission = this.permissions.get(slug);
    if (!permission) return false;
    const grantedByRoles = [...this.roles.values()].filter((r) => r.permissions.includes(slug)).length;
    const event = decide({ ...structuredClone(permission), grantedByRoles });
    this.permissions.delete(slug);
    this.events.push(event);
    return true;
  }

  async listRoles(tenantId: string | undefined): Promise<RoleRecord[] | undefined> {
    if (tenantId !== undefined && !this.tenants.has(tenantId)) return undefined;
    const listed = [...this.roles.values()].filter((r) => r.tenantId === null || r.tenantId === tenantId);
    return listed.sort((a, b) => Number(a.tenantId !== null) - Number(b.tenantId !== null) || (a.slug < b.slug ? -1 : 1)).map((r) => structuredClone(r));
  }

  async insertRole(
    asked: { slug: string; tenantId: string | null; permissions: string[] },
    _meta: unknown,
    decide: (facts: RoleCreationFacts, now: Date) => { role: RoleRecord; event: AuditAppend },
  ): Promise<RoleRecord> {
    const facts: RoleCreationFacts = {
      tenantExists: asked.tenantId === null || this.tenants.has(asked.tenantId),
      slugTakenIn: [...this.roles.values()].filter((r) => r.slug === asked.slug).map((r) => r.tenantId),
      knownPermissions: new Set(asked.permissions.filter((slug) => this.permissions.has(slug))),
    };
    const { role, event } = decide(facts, new Date());
    this.roles.set(role.id, structuredClone(role));
    this.events.push(event);
    return role;
  }

  async changeRole<T>(
    id: string,
    _meta: unknown,
    namedPermissions: string[],
    decide: (role: LockedRole, knownPermissions: ReadonlySet<string>, now: Date) => RoleChange<T>,
  ): Promise<RoleChangeWritten<T> | undefined> {
    const role = this.roles.get(id);
    if (!role) return undefined;
    const known = new Set(namedPermissions.filter((slug) => this.permissions.has(slug)));
    const heldIn = this.membersHolding(role);
    const change = decide({ ...structuredClone(role), heldByMembers: this.holders.get(id) ?? heldIn.length, defaultOfTenants: this.defaultOf.get(id) ?? 0 }, known, new Date());
    if (change.remove) this.roles.delete(id);
    else if (change.update) Object.assign(role, structuredClone(change.update));
    if (change.event) this.events.push(change.event);
    const handOffs = change.pushClaims ? [...new Set(heldIn)].map((tenantId) => ({ id: ++this.#handOffs, tenantId, command: { kind: 'pushClaims' as const } })) : [];
    return { result: change.result, changed: Boolean(change.remove || change.update), handOffs };
  }
}
