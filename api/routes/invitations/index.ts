import { createInvitationRoute } from './createInvitation.ts';
import { getInvitationRoute } from './getInvitation.ts';
import { listInvitationsRoute } from './listInvitations.ts';
import { resendInvitationRoute } from './resendInvitation.ts';
import { revokeInvitationRoute } from './revokeInvitation.ts';

export const invitationRoutes = [createInvitationRoute, listInvitationsRoute, getInvitationRoute, resendInvitationRoute, revokeInvitationRoute];
