import { scimListRequestOfQuery, scimSearchRequest, scimSelectionOfQuery } from '../../../domain/directories/scimListRequest.ts';
import { createScimUser, deleteScimUser, getScimUser, listScimUsersJson, patchScimUser, replaceScimUser } from '../../../domain/directories/scimUsers.ts';
import { created, ScimListQuery, ScimResourceQuery, scimRoute } from './scimRoute.ts';

export const scimListUsersRoute = scimRoute({
  method: 'get',
  path: '/Users',
  operationId: 'scimListUsers',
  summary: 'the directory\'s users, filtered by `userName eq` or `externalId eq`, paged by startIndex and count (at most 200)',
  query: ScimListQuery,
  handler: async ({ query }, { directory, base, scope }) => ({ status: 200, jsonText: await listScimUsersJson(scope.deps, directory, scimListRequestOfQuery(query), base) }),
});

export const scimSearchUsersRoute = scimRoute({
  method: 'post',
  path: '/Users/.search',
  operationId: 'scimSearchUsers',
  summary: 'the list of GET /Users asked in a SearchRequest body (RFC 7644 §3.4.3)',
  body: true,
  handler: async ({ body }, { directory, base, scope }) => ({ status: 200, jsonText: await listScimUsersJson(scope.deps, directory, scimSearchRequest(body), base) }),
});

export const scimGetUserRoute = scimRoute({
  method: 'get',
  path: '/Users/{uid}',
  operationId: 'scimGetUser',
  summary: 'one user of the directory, with the groups it is in',
  query: ScimResourceQuery,
  handler: async ({ params, query }, { directory, base, scope }) => ({
    status: 200,
    body: await getScimUser(scope.deps, directory, params.uid!, base, scimSelectionOfQuery(query)),
  }),
});

export const scimCreateUserRoute = scimRoute({
  method: 'post',
  path: '/Users',
  operationId: 'scimCreateUser',
  summary: 'a new user (409 uniqueness for a userName the directory has); the tenant\'s actor makes it a provider user and an active member',
  body: true,
  handler: async ({ body }, { directory, base, scope }) => created(await createScimUser(scope.deps, directory, body, base)),
});

export const scimReplaceUserRoute = scimRoute({
  method: 'put',
  path: '/Users/{uid}',
  operationId: 'scimReplaceUser',
  summary: 'the user replaced; active false deactivates its member and disables a provider user the directory made',
  body: true,
  handler: async ({ params, body }, { directory, base, scope }) => ({ status: 200, body: await replaceScimUser(scope.deps, directory, params.uid!, body, base) }),
});

export const scimPatchUserRoute = scimRoute({
  method: 'patch',
  path: '/Users/{uid}',
  operationId: 'scimPatchUser',
  summary: 'the user patched (add, replace, remove; with and without path, as Okta and Microsoft Entra ID send them)',
  body: true,
  handler: async ({ params, body }, { directory, base, scope }) => ({ status: 200, body: await patchScimUser(scope.deps, directory, params.uid!, body, base) }),
});

export const scimDeleteUserRoute = scimRoute({
  method: 'delete',
  path: '/Users/{uid}',
  operationId: 'scimDeleteUser',
  summary: 'the user deleted: its member is removed',
  handler: async ({ params }, { directory, scope }) => {
    await deleteScimUser(scope.deps, directory, params.uid!);
    return { status: 204 };
  },
});
