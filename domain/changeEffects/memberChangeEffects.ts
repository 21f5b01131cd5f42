import type { MemberChangeWritten } from '../members/memberRepository.ts';
import type { CommittedChange } from './changeEffects.ts';

/**
 * What follows a committed change of one member: this replica forgets what claims read of the user and the tenant's
 * member list now, and the tenant's actor makes the identity provider match the member through the hand-off written
 * with the change.
 */
export function memberChangeEffects(tenantId: string, userId: string, written: MemberChangeWritten<unknown>): CommittedChange {
  return { handOffs: written.handOffs, staleUsers: [userId], staleMemberLists: [tenantId] };
}
