import { apiKeyRoutes } from './apiKeys/index.ts';
import { auditRoutes } from './audit/index.ts';
import { catalogRoutes } from './catalogRoutes.ts';
import { claimsRoutes } from './claimsRoutes.ts';
import { entitlementRoutes } from './entitlementRoutes.ts';
import { healthRoutes } from './healthRoutes.ts';
import { identityProviderRoutes } from './identityProviderRoutes.ts';
import { simulatedActionTokenRoutes } from './simulatedActionTokenRoutes.ts';
import { tenantRoutes } from './tenantRoutes.ts';

/** Every operation the service serves; the router and the OpenAPI document are both built from this list. */
export const allRoutes = [
  ...healthRoutes,
  ...tenantRoutes,
  ...entitlementRoutes,
  ...catalogRoutes,
  ...apiKeyRoutes,
  ...claimsRoutes,
  ...auditRoutes,
  ...identityProviderRoutes,
  ...simulatedActionTokenRoutes,
];
