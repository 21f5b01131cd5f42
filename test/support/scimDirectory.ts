import { expect } from 'vitest';
import type { ActorStack } from './actorStack.ts';
import type { TestResponse } from './testService.ts';
import { uniqueSlug } from './testService.ts';

/** A fresh tenant with one directory, and a caller of its SCIM endpoint with the directory's token. */
export async function newScimDirectory(stack: ActorStack, prefix: string, groupRoles: Record<string, string[]> = {}) {
  const tenant = (await stack.service.request('POST', '/v1/tenants', { slug: uniqueSlug(prefix), name: 'SCIM' })).body.tenant as { id: string; slug: string };
  const directory = (await stack.service.request('POST', `/v1/tenants/${tenant.id}/directories`, { group_roles: groupRoles })).body as { id: string; token: string; scim_base_url: string };
  /** A request as the identity provider sends it: a body is application/scim+json unless `contentType` says otherwise. */
  const scim = (method: string, path: string, body?: unknown, contentType = 'application/scim+json') =>
    stack.service.request(method, `/scim/v2/directories/${directory.id}${path}`, body, {
      authorization: `Bearer ${directory.token}`,
      ...(body === undefined ? {} : { 'content-type': contentType }),
    });
  return { tenant, directory, scim };
}

/** RFC 7644 §8.1: every SCIM answer with a body is application/scim+json. */
export function expectScimAnswer(response: TestResponse, status: number) {
  expect({ status: response.status, body: response.body }).toMatchObject({ status });
  expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json(;|$)/);
}

/** RFC 7644 §3.3: a 201 names the new resource's URI in Location, the same as its meta.location. */
export function expectCreated(response: TestResponse) {
  expectScimAnswer(response, 201);
  expect(response.headers.get('location')).toBe(response.body.meta.location);
  expect(response.body.meta.location).toMatch(/^https?:\/\/.+\/(Users|Groups)\/[0-9a-f-]{36}$/);
}
