import { scimResourceTypesRoute, scimSchemasRoute, scimServiceProviderConfigRoute } from './scimDiscovery.ts';

export const scimRoutes = [scimServiceProviderConfigRoute, scimResourceTypesRoute, scimSchemasRoute];
