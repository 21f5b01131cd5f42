import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

let service: TestService;
/** A registry whose directories may make 2 SCIM requests a second (a burst of 4). */
let limited: TestService;
beforeAll(async () => {
  service = await startTestService({ PUBLIC_BASE_URL: 'https://registry.example.com' });
  limited = await startTestService({ SCIM_RATE_LIMIT_PER_SECOND: 2 });
});
afterAll(async () => {
  await service?.close();
  await limited?.close();
});

const newTenant = async (on = service) => (await on.request('POST', '/v1/tenants', { slug: uniqueSlug('dir'), name: 'Directories' })).body.tenant as { id: string };
const scim = (directoryId: string, path: string, token?: string, on = service) =>
  on.request('GET', `/scim/v2/directories/${directoryId}${path}`, undefined, token ? { authorization: `Bearer ${token}` } : {});
const eventsOf = async (tenantId: string) =>
  ((await service.request('GET', `/v1/audit?tenant_id=${tenantId}&limit=100`)).body.items as { action: string; metadata: Record<string, unknown> }[])
    .filter((e) => e.action.startsWith('directory.'))
    .reverse();

describe('POST /v1/tenants/{id}/directories and the directory API', () => {
  it('makes a directory with its SCIM base URL and a token shown once (only its hash kept); lists, gets, patches it, audited without the token', async () => {
    const tenant = await newTenant();
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/directories`, { group_roles: { Admins: ['IT_ADMIN'] } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      tenant_id: tenant.id,
      scim_base_url: `https://registry.example.com/scim/v2/directories/${res.body.id}`,
      state: 'active',
      group_roles: { Admins: ['IT_ADMIN'] },
      users: 0,
      groups: 0,
      last_synced_at: null,
      created_at: expect.any(String),
      token: expect.stringMatching(/^scim_[\w-]{43}$/),
    });
    const [stored] = await service.orm.em.fork().execute<{ token_hash: Buffer }[]>('select token_hash from directories where id = ?', [res.body.id]);
    expect(stored!.token_hash.toString('utf8')).not.toContain(res.body.token);
    const { token, ...directory } = res.body;
    expect((await service.request('GET', `/v1/directories/${directory.id}`)).body).toEqual(directory);
    expect((await service.request('GET', `/v1/tenants/${tenant.id}/directories`)).body).toEqual({ items: [directory] });
    const patched = await service.request('PATCH', `/v1/directories/${directory.id}`, { group_roles: { Admins: ['IT_ADMIN'], Staff: ['MEMBER'] } });
    expect(patched.body.group_roles).toEqual({ Admins: ['IT_ADMIN'], Staff: ['MEMBER'] });
    expect((await eventsOf(tenant.id)).map((e) => e.action)).toEqual(['directory.created', 'directory.updated']);
    expect(JSON.stringify(await eventsOf(tenant.id))).not.toContain(token);
  });

  it('refuses a malformed mapping (400), an unknown tenant or directory (404)', async () => {
    const tenant = await newTenant();
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/directories`, { group_roles: { Admins: 'IT_ADMIN' } })).status).toBe(400);
    expect((await service.request('POST', '/v1/tenants/00000000-0000-4000-8000-00000000000c/directories', {})).status).toBe(404);
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['POST', '/rotate-token'], ['DELETE', '']] as const) {
      expect((await service.request(method, `/v1/directories/00000000-0000-4000-8000-00000000000d${path}`, method === 'PATCH' ? { state: 'inactive' } : undefined)).status, `${method} ${path}`).toBe(404);
    }
  });
});

describe("a directory's SCIM endpoint", () => {
  it('answers its discovery documents to its own token only; another directory\'s token, none, or an inactive directory is 401 with a SCIM error', async () => {
    const tenant = await newTenant();
    const mine = (await service.request('POST', `/v1/tenants/${tenant.id}/directories`, {})).body;
    const other = (await service.request('POST', `/v1/tenants/${(await newTenant()).id}/directories`, {})).body;
    const config = await scim(mine.id, '/ServiceProviderConfig', mine.token);
    expect(config).toMatchObject({ status: 200, body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'], patch: { supported: true }, filter: { supported: true } } });
    expect((await scim(mine.id, '/ResourceTypes', mine.token)).body).toMatchObject({ totalResults: 2, Resources: [{ id: 'User', endpoint: '/Users' }, { id: 'Group', endpoint: '/Groups' }] });
    expect((await scim(mine.id, '/Schemas', mine.token)).body.Resources.map((s: { id: string }) => s.id)).toEqual([
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ]);
    for (const token of [undefined, other.token, `${mine.token}x`]) {
      const refused = await scim(mine.id, '/ServiceProviderConfig', token);
      expect(refused).toMatchObject({ status: 401, body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' } });
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await scim('00000000-0000-4000-8000-00000000000e', '/ServiceProviderConfig', mine.token)).status).toBe(401);
    await service.request('PATCH', `/v1/directories/${mine.id}`, { state: 'inactive' });
    expect((await scim(mine.id, '/ServiceProviderConfig', mine.token)).status).toBe(401);
  });

  it('keeps the token before a rotation working (24 h), takes the new one, and none after the directory is deleted', async () => {
    const tenant = await newTenant();
    const created = (await service.request('POST', `/v1/tenants/${tenant.id}/directories`, {})).body;
    const rotated = await service.request('POST', `/v1/directories/${created.id}/rotate-token`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).not.toBe(created.token);
    expect((await scim(created.id, '/ServiceProviderConfig', created.token)).status).toBe(200);
    expect((await scim(created.id, '/ServiceProviderConfig', rotated.body.token)).status).toBe(200);
    // Past the grace, only the new one.
    await service.orm.em.fork().execute(`update directories set previous_token_expires_at = now() - interval '1 second' where id = ?`, [created.id]);
    // The grace's end moved into the past by hand: what a replica hears from the table's notification, which this
    // service (no change listener) is told directly.
    service.deps.cache.invalidateDirectory(created.id);
    expect((await scim(created.id, '/ServiceProviderConfig', created.token)).status).toBe(401);
    expect((await scim(created.id, '/ServiceProviderConfig', rotated.body.token)).status).toBe(200);
    expect((await service.request('DELETE', `/v1/directories/${created.id}`)).status).toBe(204);
    expect((await scim(created.id, '/ServiceProviderConfig', rotated.body.token)).status).toBe(401);
    expect((await eventsOf(tenant.id)).map((e) => e.action)).toEqual(['directory.created', 'directory.token_rotated', 'directory.deleted']);
  });

  it("limits each directory to SCIM_RATE_LIMIT_PER_SECOND: past its burst, 429 with Retry-After, another directory unaffected", async () => {
    const [a, b] = [
      (await limited.request('POST', `/v1/tenants/${(await newTenant(limited)).id}/directories`, {})).body,
      (await limited.request('POST', `/v1/tenants/${(await newTenant(limited)).id}/directories`, {})).body,
    ];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await scim(a.id, '/ServiceProviderConfig', a.token, limited)).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const limitedAnswer = await scim(a.id, '/ServiceProviderConfig', a.token, limited);
    expect(limitedAnswer).toMatchObject({ status: 429, body: { status: '429' } });
    expect(Number(limitedAnswer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await scim(b.id, '/ServiceProviderConfig', b.token, limited)).status).toBe(200);
  });
});
