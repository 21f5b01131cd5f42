import { listEntitlementsRoute } from './listEntitlements.ts';
import { putEntitlementRoute } from './putEntitlement.ts';
import { revokeEntitlementRoute } from './revokeEntitlement.ts';

export const entitlementRoutes = [listEntitlementsRoute, putEntitlementRoute, revokeEntitlementRoute];
