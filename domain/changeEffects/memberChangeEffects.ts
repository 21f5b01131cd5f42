import type { MemberChangeWritten } from '../members/memberRepository.ts';
import type { CommittedChange } from './changeEffects.ts';

/**
 * What follows a committed change of one member: this replica forgets what claims read of the user now, and the
 * tenant's actor makes the identity provider match the member through the hand-off written with the change.
 */
export function memberChangeEffects(userId: string, written: MemberChangeWritten<unknown>): CommittedChange {
  return { handOffs: written.handOffs, staleUsers: [userId] };
}
