import { listEntitlementsRoute } from './listEntitlements.ts';

export const entitlementRoutes = [listEntitlementsRoute];
