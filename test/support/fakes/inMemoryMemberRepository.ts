import type { QueuedActorCommand } from '../../../domain/changeEffects/changeEffects.ts';
import type { MemberRecord } from '../../../domain/members/memberRecord.ts';
import type {
  MemberChange,
  MemberChangeFacts,
  MemberChangeWritten,
  ListedMember,
  MemberListFilter,
  MemberListPosition,
  MemberRepository,
} from '../../../domain/members/memberRepository.ts';
import { isActiveAdmin } from '../../../domain/members/lastActiveAdmin.ts';
import type { DirectoryUser } from '../../../domain/members/userDirectory.ts';
import type { AuditAppend } from '../../../domain/schemas/audit.ts';
import type { InMemoryRoleRepository } from './inMemoryRoleRepository.ts';

const key = (tenantId: string, userId: string) => `${tenantId} ${userId}`;
const byPosition = (a: MemberListPosition, b: MemberListPosition) =>
  a.email < b.email ? -1 : a.email > b.email ? 1 : a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0;
const positionOf = (m: MemberRecord): MemberListPosition => ({ email: m.email.toLowerCase(), userId: m.userId });

/**
 * The members' store in memory, for unit tests of the domain rules: its tenants and roles are those of the role
 * repository it is given (a member's permissions follow its roles' as they are there), and it records the events and
 * the `syncMember` hand-offs each change writes.
 */
export class InMemoryMemberRepository implements MemberRepository {
  readonly members = new Map<string, MemberRecord>();
  readonly events: AuditAppend[] = [];
  readonly handOffs: QueuedActorCommand[] = [];
  readonly #roles: InMemoryRoleRepository;

  constructor(roles: InMemoryRoleRepository) {
    this.#roles = roles;
    roles.membersHolding = (role) =>
      [...this.members.values()].filter((m) => (role.tenantId === null || m.tenantId === role.tenantId) && m.roles.includes(role.slug)).map((m) => m.tenantId);
  }

  /** A member as a test sets it up, its permissions those of its roles; nothing recorded. */
  seed(member: Omit<MemberRecord, 'permissions' | 'createdAt' | 'updatedAt'>): MemberRecord {
    const now = new Date();
    const record = { ...member, roles: [...member.roles].sort(), permissions: this.#permissionsOf(member.tenantId, member.roles), createdAt: now, updatedAt: now };
    this.members.set(key(member.tenantId, member.userId), record);
    return structuredClone(record);
  }

  async find(tenantId: string, userId: string): Promise<MemberRecord | undefined> {
    const member = this.members.get(key(tenantId, userId));
    return member && this.#current(member);
  }

  async ofUser(userId: string): Promise<MemberRecord[]> {
    return [...this.members.values()].filter((m) => m.userId === userId).sort((a, b) => (a.tenantId < b.tenantId ? -1 : 1)).map((m) => this.#current(m));
  }

  async allOfTenant(tenantId: string): Promise<MemberRecord[]> {
    return [...this.members.values()].filter((m) => m.tenantId === tenantId).sort((a, b) => (a.userId < b.userId ? -1 : 1)).map((m) => this.#current(m));
  }

  async page(
    tenantId: string,
    filter: MemberListFilter,
    after: MemberListPosition | undefined,
    limit: number,
  ): Promise<{ member: MemberRecord; position: MemberListPosition }[] | undefined> {
    if (!this.#roles.tenants.has(tenantId)) return undefined;
    const prefix = filter.prefix?.toLowerCase();
    return [...this.members.values()]
      .filter((m) => m.tenantId === tenantId)
      .filter((m) => filter.status === undefined || m.status === filter.status)
      .filter((m) => filter.role === undefined || m.roles.includes(filter.role))
      .filter((m) => prefix === undefined || m.email.toLowerCase().startsWith(prefix) || m.name.toLowerCase().startsWith(prefix))
      .filter((m) => after === undefined || byPosition(positionOf(m), after) > 0)
      .sort((a, b) => byPosition(positionOf(a), positionOf(b)))
      .slice(0, limit)
      .map((m) => ({ member: this.#current(m), position: positionOf(m) }));
  }

  async listing(tenantId: string, atMost: number): Promise<ListedMember[] | 'tooMany' | undefined> {
    if (!this.#roles.tenants.has(tenantId)) return undefined;
    const all = [...this.members.values()].filter((m) => m.tenantId === tenantId).sort((a, b) => byPosition(positionOf(a), positionOf(b)));
    if (all.length > atMost) return 'tooMany';
    return all.map((m) => ({ member: this.#current(m), position: positionOf(m), lowerName: m.name.toLowerCase() }));
  }

  async change<T>(
    tenantId: string,
    userId: string,
    _meta: unknown,
    namedRoles: string[],
    decide: (facts: MemberChangeFacts, now: Date) => MemberChange<T>,
  ): Promise<MemberChangeWritten<T> | undefined> {
    if (!this.#roles.tenants.has(tenantId)) return undefined;
    const ofTenant = [...this.members.values()].filter((m) => m.tenantId === tenantId);
    const member = this.members.get(key(tenantId, userId));
    const knownRoles = new Map(
      [...this.#roles.roles.values()]
        .filter((r) => (r.tenantId === null || r.tenantId === tenantId) && namedRoles.includes(r.slug))
        .map((r) => [r.slug, [...r.permissions]] as const),
    );
    const change = decide(
      { member: member && this.#current(member), members: ofTenant.length, activeAdmins: ofTenant.filter(isActiveAdmin).length, knownRoles },
      new Date(),
    );
    if (change.remove) this.members.delete(key(tenantId, userId));
    else if (change.put) this.members.set(key(tenantId, userId), structuredClone(change.put));
    if (change.event) this.events.push(change.event);
    if (!change.remove && !change.put) return { result: change.result, handOffs: [] };
    const handOff: QueuedActorCommand = { id: this.handOffs.length + 1, tenantId, command: { kind: 'syncMember', user_id: userId } };
    this.handOffs.push(handOff);
    return { result: change.result, handOffs: [handOff] };
  }

  /** The member with the permissions its roles grant now, as the store reads them. */
  #current(member: MemberRecord): MemberRecord {
    return { ...structuredClone(member), permissions: this.#permissionsOf(member.tenantId, member.roles) };
  }

  #permissionsOf(tenantId: string, roles: readonly string[]): string[] {
    const held = [...this.#roles.roles.values()].filter((r) => (r.tenantId === null || r.tenantId === tenantId) && roles.includes(r.slug));
    return [...new Set(held.flatMap((r) => r.permissions))].sort();
  }
}
