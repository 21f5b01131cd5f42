import { listMembershipsRoute } from './listMemberships.ts';
import { resendInviteRoute, retryProvisioningRoute } from './operatorSignals.ts';
import { simulatedActionTokenRoute } from './simulatedActionToken.ts';

export const identityProviderRoutes = [resendInviteRoute, retryProvisioningRoute, listMembershipsRoute, simulatedActionTokenRoute];
