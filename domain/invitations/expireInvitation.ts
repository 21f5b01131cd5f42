import type { InvitationRecord } from './invitationRecord.ts';
import type { InvitationChange, InvitationChangeFacts } from './invitationRepository.ts';
import { closedInvitation } from './revokeInvitation.ts';

/**
 * The expiry rule, applied by the tenant's actor at `asOf` (its timer's time): a pending invitation whose expiry has
 * come becomes `expired` (`invitation.expired`); anything else (resent meanwhile, accepted, revoked) is left as it is.
 */
export function planExpiry(asOf: Date) {
  return (facts: InvitationChangeFacts, now: Date): InvitationChange<InvitationRecord | undefined> => {
    const before = facts.invitation;
    if (!before || before.state !== 'pending' || before.expiresAt.getTime() > asOf.getTime()) return { result: undefined };
    return closedInvitation(facts, 'expired', now, { expires_at: before.expiresAt.toISOString() });
  };
}
