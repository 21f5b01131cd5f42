import type { MemberRecord, MemberStatus } from '../../../domain/members/memberRecord.ts';
import type { MemberRepository } from '../../../domain/members/memberRepository.ts';

/** A member record with what the claims path and the memberships list read; the rest fixed. */
export const memberRecord = (tenantId: string, userId: string, status: MemberStatus, roles: string[] = [], permissions: string[] = []): MemberRecord => ({
  tenantId,
  userId,
  email: `${userId}@example.test`,
  name: userId,
  roles,
  permissions,
  status,
  source: 'registry',
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

/** The members' read of a user's records in memory (the claims path's one statement); counts reads, can be made to fail. */
export class UserMemberships implements Pick<MemberRepository, 'ofUser'> {
  readonly records: MemberRecord[];
  reads = 0;
  /** While set, every read fails as an unreachable store does. */
  failing = false;

  constructor(records: MemberRecord[] = []) {
    this.records = records;
  }

  async ofUser(userId: string): Promise<MemberRecord[]> {
    this.reads += 1;
    if (this.failing) throw new Error('store unreachable');
    return this.records.filter((r) => r.userId === userId).sort((a, b) => a.tenantId.localeCompare(b.tenantId));
  }
}
