import { scimListRequestOfQuery, scimSearchRequest, scimSelectionOfQuery } from '../../../domain/directories/scimListRequest.ts';
import { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from '../../../domain/directories/scimGroups.ts';
import { created, ScimListQuery, ScimResourceQuery, scimRoute } from './scimRoute.ts';

export const scimListGroupsRoute = scimRoute({
  method: 'get',
  path: '/Groups',
  operationId: 'scimListGroups',
  summary: "the directory's groups, filtered by `displayName eq` or `externalId eq`, paged by startIndex and count",
  query: ScimListQuery,
  handler: async ({ query }, { directory, base, scope }) => ({ status: 200, body: await listScimGroups(scope.deps, directory, scimListRequestOfQuery(query), base) }),
});

export const scimSearchGroupsRoute = scimRoute({
  method: 'post',
  path: '/Groups/.search',
  operationId: 'scimSearchGroups',
  summary: 'the list of GET /Groups asked in a SearchRequest body (RFC 7644 §3.4.3)',
  body: true,
  handler: async ({ body }, { directory, base, scope }) => ({ status: 200, body: await listScimGroups(scope.deps, directory, scimSearchRequest(body), base) }),
});

export const scimGetGroupRoute = scimRoute({
  method: 'get',
  path: '/Groups/{uid}',
  operationId: 'scimGetGroup',
  summary: 'one group of the directory, with its members',
  query: ScimResourceQuery,
  handler: async ({ params, query }, { directory, base, scope }) => ({
    status: 200,
    body: await getScimGroup(scope.deps, directory, params.uid!, base, scimSelectionOfQuery(query)),
  }),
});

export const scimCreateGroupRoute = scimRoute({
  method: 'post',
  path: '/Groups',
  operationId: 'scimCreateGroup',
  summary: "a new group (409 uniqueness for a displayName the directory has); its members get the roles the directory's group_roles map its name to",
  body: true,
  handler: async ({ body }, { directory, base, scope }) => created(await createScimGroup(scope.deps, directory, body, base)),
});

export const scimReplaceGroupRoute = scimRoute({
  method: 'put',
  path: '/Groups/{uid}',
  operationId: 'scimReplaceGroup',
  summary: 'the group replaced; its members before and after get their roles again',
  body: true,
  handler: async ({ params, body }, { directory, base, scope }) => ({ status: 200, body: await replaceScimGroup(scope.deps, directory, params.uid!, body, base) }),
});

export const scimPatchGroupRoute = scimRoute({
  method: 'patch',
  path: '/Groups/{uid}',
  operationId: 'scimPatchGroup',
  summary: 'members added or removed (also `members[value eq "…"]`), displayName replaced, as Okta and Microsoft Entra ID send them',
  body: true,
  handler: async ({ params, body }, { directory, base, scope }) => ({ status: 200, body: await patchScimGroup(scope.deps, directory, params.uid!, body, base) }),
});

export const scimDeleteGroupRoute = scimRoute({
  method: 'delete',
  path: '/Groups/{uid}',
  operationId: 'scimDeleteGroup',
  summary: 'the group deleted; its members lose the roles it gave',
  handler: async ({ params }, { directory, scope }) => {
    await deleteScimGroup(scope.deps, directory, params.uid!);
    return { status: 204 };
  },
});
