import { apiKeyRoutes } from './apiKeys/index.ts';
import { auditRoutes } from './audit/index.ts';
import { catalogRoutes } from './catalog/index.ts';
import { claimsRoutes } from './claims/index.ts';
import { entitlementRoutes } from './entitlements/index.ts';
import { healthRoutes } from './health/index.ts';
import { identityProviderRoutes } from './identityProvider/index.ts';
import { domainRoutes } from './domains/index.ts';
import { ssoConnectionRoutes } from './ssoConnections/index.ts';
import { directoryRoutes } from './directories/index.ts';
import { createPortalLinkRoute } from './portal/createPortalLink.ts';
import { scimRoutes } from './scim/index.ts';
import { invitationRoutes } from './invitations/index.ts';
import { memberRoutes } from './members/index.ts';
import { permissionRoutes } from './permissions/index.ts';
import { roleRoutes } from './roles/index.ts';
import { tenantRoutes } from './tenants/index.ts';
import { temporalCodecRoutes } from './temporalCodec/index.ts';
import { eventRoutes } from './events/index.ts';
import { webhookEndpointRoutes } from './webhookEndpoints/index.ts';

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
  ...permissionRoutes,
  ...roleRoutes,
  ...memberRoutes,
  ...invitationRoutes,
  ...domainRoutes,
  ...ssoConnectionRoutes,
  ...directoryRoutes,
  ...scimRoutes,
  createPortalLinkRoute,
  ...temporalCodecRoutes,
  ...eventRoutes,
  ...webhookEndpointRoutes,
];
