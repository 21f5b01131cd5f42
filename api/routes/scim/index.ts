import { scimResourceTypesRoute, scimSchemasRoute, scimServiceProviderConfigRoute } from './scimDiscovery.ts';
import { scimCreateGroupRoute, scimDeleteGroupRoute, scimGetGroupRoute, scimListGroupsRoute, scimPatchGroupRoute, scimReplaceGroupRoute } from './scimGroups.ts';
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
  scimListGroupsRoute,
  scimCreateGroupRoute,
  scimGetGroupRoute,
  scimReplaceGroupRoute,
  scimPatchGroupRoute,
  scimDeleteGroupRoute,
];
