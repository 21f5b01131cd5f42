/** Where an invitation stands (SPEC-EXTENSIONS §8); every state is kept, nothing is deleted. */
export const INVITATION_STATES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

/** The days an invitation runs when neither the request nor the tenant's settings say otherwise. */
export const DEFAULT_INVITATION_EXPIRY_DAYS = 7;
/** The role an invitation grants when the request names none (until tenant settings name another default). */
export const DEFAULT_INVITED_ROLE = 'MEMBER';

/** One invitation of one e-mail address to one tenant, with the roles its member gets on acceptance. */
export interface InvitationRecord {
  id: string;
  tenantId: string;
  /** Lower-cased and trimmed: one person, one pending invitation per tenant. */
  email: string;
  /** Slugs of the roles the member gets, sorted. */
  roles: string[];
  state: InvitationState;
  expiresAt: Date;
  /** Who invited: the request's actor (the token's client), or `provisioning` for a tenant's first IT_ADMIN. */
  invitedBy: string;
  /** False: the link is answered to the inviter and no e-mail goes out. */
  sendEmail: boolean;
  /** Sends requested so far (the first and every resend). */
  sendCount: number;
  lastSentAt: Date | null;
  /** When the sends counted by the resend limit were requested, oldest first (the last 10 minutes' only). */
  recentSends: Date[];
  acceptedAt: Date | null;
  acceptedUserId: string | null;
  revokedAt: Date | null;
  /** The identity provider's user the invitation was sent to, once its actor made or found it. */
  userId: string | null;
  /**
   * The secret of the one link that opens the invitation now: every send makes a new one, and revocation, expiry and
   * acceptance clear it, so any earlier link stops working at once. Never answered by the API.
   */
  linkNonce: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The inviter of a tenant's first IT_ADMIN: provisioning's invite is an invitation like any other. */
export const PROVISIONING_INVITER = 'provisioning';
