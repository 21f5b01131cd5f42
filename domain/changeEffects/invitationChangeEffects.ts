import type { InvitationChangeWritten } from '../invitations/invitationRepository.ts';
import type { CommittedChange } from './changeEffects.ts';
import { invitationListing } from '../reads/listingNames.ts';

/**
 * What follows a committed change of an invitation besides its send (which the service delivers and waits for): the
 * tenant's invitations listing is stale; for a member the change wrote or removed, what a member change is followed
 * by (see memberChangeEffects).
 */
export function invitationChangeEffects(tenantId: string, written: InvitationChangeWritten<unknown>): CommittedChange {
  const sync = written.memberSync;
  const staleListings = [invitationListing(tenantId)];
  if (sync?.command.kind !== 'syncMember') return { staleListings };
  return { handOffs: [sync], staleUsers: [sync.command.user_id], staleMemberLists: [tenantId], staleListings };
}
