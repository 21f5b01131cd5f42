import { scimResourceTypeRoute, scimResourceTypesRoute, scimSchemaRoute, scimSchemasRoute, scimSearchEverythingRoute, scimServiceProviderConfigRoute } from './scimDiscovery.ts';
import { scimCreateGroupRoute, scimDeleteGroupRoute, scimGetGroupRoute, scimListGroupsRoute, scimPatchGroupRoute, scimReplaceGroupRoute, scimSearchGroupsRoute } from './scimGroups.ts';
import { scimCreateUserRoute, scimDeleteUserRoute, scimGetUserRoute, scimListUsersRoute, scimPatchUserRoute, scimReplaceUserRoute, scimSearchUsersRoute } from './scimUsers.ts';

export const scimRoutes = [
  scimServiceProviderConfigRoute,
  scimResourceTypesRoute,
  scimSchemasRoute,
  scimResourceTypeRoute,
  scimSchemaRoute,
  scimSearchEverythingRoute,
  scimListUsersRoute,
  scimSearchUsersRoute,
  scimCreateUserRoute,
  scimGetUserRoute,
  scimReplaceUserRoute,
  scimPatchUserRoute,
  scimDeleteUserRoute,
  scimListGroupsRoute,
  scimSearchGroupsRoute,
  scimCreateGroupRoute,
  scimGetGroupRoute,
  scimReplaceGroupRoute,
  scimPatchGroupRoute,
  scimDeleteGroupRoute,
];
