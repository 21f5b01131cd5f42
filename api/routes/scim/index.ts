import { scimResourceTypesRoute, scimSchemasRoute, scimServiceProviderConfigRoute } from './scimDiscovery.ts';
import { scimCreateUserRoute, scimDeleteUserRoute, scimGetUserRoute, scimListUsersRoute, scimPatchUserRoute, scimReplaceUserRoute } from './scimUsers.ts';

export const scimRoutes = [
  scimServiceProviderConfigRoute,
  scimResourceTypesRoute,
  scimSchemasRoute,
  scimListUsersRoute,
  scimCreateUserRoute,
  scimGetUserRoute,
  scimReplaceUserRoute,
  scimPatchUserRoute,
  scimDeleteUserRoute,
];
