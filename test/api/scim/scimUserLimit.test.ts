import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

/** A registry whose tenants' directories may hold 2 SCIM users together. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ SCIM_USERS_PER_TENANT_LIMIT: 2 });
});
afterAll(() => service?.close());

describe('SCIM_USERS_PER_TENANT_LIMIT', () => {
  it("past the limit, over all the tenant's directories, a create is 409 naming limit_reached and the limit, and nothing is made", async () => {
    const tenant = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('lim'), name: 'Limits' })).body.tenant as { id: string; slug: string };
    const directories = [];
    for (let i = 0; i < 2; i++) directories.push((await service.request('POST', `/v1/tenants/${tenant.id}/directories`, {})).body as { id: string; token: string });
    const create = (d: { id: string; token: string }, userName: string) =>
      service.request('POST', `/scim/v2/directories/${d.id}/Users`, { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName }, { authorization: `Bearer ${d.token}`, 'content-type': 'application/scim+json' });
    expect((await create(directories[0]!, `a@${tenant.slug}.example`)).status).toBe(201);
    expect((await create(directories[1]!, `b@${tenant.slug}.example`)).status).toBe(201);
    const refused = await create(directories[1]!, `c@${tenant.slug}.example`);
    expect(refused).toMatchObject({ status: 409, body: { status: '409', detail: expect.stringMatching(/limit_reached.*2/) } });
    const listed = await service.request('GET', `/scim/v2/directories/${directories[1]!.id}/Users`, undefined, { authorization: `Bearer ${directories[1]!.token}` });
    expect(listed.body.totalResults).toBe(1);
  });
});
