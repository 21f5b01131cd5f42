import { listMembershipsRoute } from './listMemberships.ts';
import { resendInviteRoute, retryProvisioningRoute } from './operatorSignals.ts';
import { acceptInvitationLinkRoute, checkInvitationLinkRoute } from './invitationLinks.ts';
import { recordSsoSignInRoute } from './ssoSignIns.ts';
import { checkSsoSignInRoute } from './ssoSignInChecks.ts';
import { completeSimulatedActionTokenRoute, simulatedActionTokenRoute } from './simulatedActionToken.ts';
import { simulatedSamlDescriptorRoute } from './simulatedSamlDescriptor.ts';

export const identityProviderRoutes = [resendInviteRoute, retryProvisioningRoute, listMembershipsRoute, simulatedActionTokenRoute, completeSimulatedActionTokenRoute, checkInvitationLinkRoute, acceptInvitationLinkRoute, recordSsoSignInRoute, checkSsoSignInRoute, simulatedSamlDescriptorRoute];
