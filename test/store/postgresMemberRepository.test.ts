import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addSimulatedUser } from '../support/simulatedUsers.ts';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';
import { SimulatedIdentityProvider } from '../../identityProvider/simulatedIdentityProvider.ts';
import { nativePool } from '../../store/nativePool.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
  service.deps.users = new SimulatedIdentityProvider(service.deps.orm, service.baseUrl);
});
afterAll(() => service.close());

const sql = (text: string, params: unknown[] = []) => service.orm.em.fork().execute<Record<string, any>[]>(text, params);
const newTenant = async () => (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('mstore'), name: 'Members store' })).body.tenant.id as string;
const syncsOf = async (tenantId: string) =>
  (await sql(`select payload from tenant_actor_outbox where tenant_id = ? and command = 'syncMember' order by id`, [tenantId])).map((row) => row.payload);
const members = () => service.deps.stores.members;

describe('PostgresMemberRepository reads', () => {
  it("ofUser answers the user's record in every tenant, by tenant id; allOfTenant the tenant's members, by user id", async () => {
    const [a, b] = [await newTenant(), await newTenant()];
    const [first, second] = [await addSimulatedUser(service.orm), await addSimulatedUser(service.orm)];
    for (const [tenantId, userId, roles] of [[a, first, ['IT_ADMIN']], [b, first, ['MEMBER']], [a, second, ['MEMBER']]] as const) {
      expect((await service.request('PUT', `/v1/tenants/${tenantId}/members/${userId}`, { roles })).status).toBe(201);
    }
    expect((await members().ofUser(first)).map((m) => [m.tenantId, m.roles])).toEqual([[a, ['IT_ADMIN']], [b, ['MEMBER']]].sort((x, y) => (x[0]! < y[0]! ? -1 : 1)));
    expect((await members().allOfTenant(a)).map((m) => m.userId)).toEqual([first, second].sort());
    expect(await members().ofUser('nobody')).toEqual([]);
    expect(await members().allOfTenant('not-a-uuid')).toEqual([]);
  });

  it('users asked for together are read in one statement, each answered with its own records', async () => {
    const [a, b] = [await newTenant(), await newTenant()];
    const [first, second] = [await addSimulatedUser(service.orm), await addSimulatedUser(service.orm)];
    for (const [tenantId, userId] of [[a, first], [b, first], [b, second]] as const) {
      expect((await service.request('PUT', `/v1/tenants/${tenantId}/members/${userId}`, { roles: ['MEMBER'] })).status).toBe(201);
    }
    const sent = vi.spyOn(await nativePool(service.deps.orm), 'query');
    try {
      const found = await Promise.all([first, second, 'nobody', first].map((userId) => members().ofUser(userId)));
      expect(found.map((records) => records.map((m) => [m.userId, m.tenantId]))).toEqual([
        [[first, a], [first, b]].sort((x, y) => (x[1]! < y[1]! ? -1 : 1)),
        [[second, b]],
        [],
        [[first, a], [first, b]].sort((x, y) => (x[1]! < y[1]! ? -1 : 1)),
      ]);
      expect(sent.mock.calls.map(([statement]) => (statement as { name: string }).name)).toEqual(['members_of_users']);
    } finally {
      sent.mockRestore();
    }
  });

  it("listing reads the tenant's members in the page's order with the e-mail and name as lower() gives them; more than atMost is tooMany without reading them", async () => {
    const tenantId = await newTenant();
    for (const [userId, email, name] of [['b', 'Bea@x.test', 'Bea B'], ['a', 'bea@x.test', 'ZOE'], ['c', 'Al@x.test', 'Al']]) {
      await sql(`insert into members (tenant_id, user_id, email, name, status, source) values (?, ?, ?, ?, 'active', 'directory')`, [tenantId, userId, email, name]);
    }
    const listed = await members().listing(tenantId, 3);
    expect(listed).not.toBe('tooMany');
    expect((listed as Exclude<typeof listed, 'tooMany' | undefined>).map((m) => [m.member.userId, m.position, m.lowerName])).toEqual([
      ['c', { email: 'al@x.test', userId: 'c' }, 'al'],
      ['a', { email: 'bea@x.test', userId: 'a' }, 'zoe'],
      ['b', { email: 'bea@x.test', userId: 'b' }, 'bea b'],
    ]);
    const page = await members().page(tenantId, {}, undefined, 10);
    expect((listed as { member: unknown }[]).map((m) => m.member)).toEqual(page!.map((row) => row.member));
    expect(await members().listing(tenantId, 2)).toBe('tooMany');
    expect(await members().listing(await newTenant(), 0)).toEqual([]);
    expect(await members().listing('00000000-0000-4000-8000-00000000000f', 10)).toBeUndefined();
    expect(await members().listing('not-a-uuid', 10)).toBeUndefined();
  });
});

describe('PostgresMemberRepository.change', () => {
  it('writes the member, its roles, its event and its hand-off together: an audit append that fails leaves none of them', async () => {
    const tenantId = await newTenant();
    const userId = await addSimulatedUser(service.orm);
    await sql(`alter table audit_events add constraint refuse_member_probe check (target_id is distinct from '${userId}') not valid`);
    try {
      expect((await service.request('PUT', `/v1/tenants/${tenantId}/members/${userId}`, { roles: ['IT_ADMIN'] })).status).toBe(500);
    } finally {
      await sql('alter table audit_events drop constraint refuse_member_probe');
    }
    expect(await members().find(tenantId, userId)).toBeUndefined();
    expect(await sql('select 1 from member_roles where tenant_id = ?', [tenantId])).toEqual([]);
    expect(await syncsOf(tenantId)).toEqual([]);
  });

  it("a role given to a member and that role's deletion take turns: one of them is refused, never a failure", async () => {
    const tenantId = await newTenant();
    for (let round = 0; round < 5; round += 1) {
      const role = (await service.request('POST', '/v1/roles', { slug: `Race_${round}_${tenantId.slice(0, 8)}`, name: 'Race', tenant_id: tenantId })).body;
      const userId = await addSimulatedUser(service.orm);
      const [given, deleted] = await Promise.all([
        service.request('PUT', `/v1/tenants/${tenantId}/members/${userId}`, { roles: [role.slug] }),
        service.request('DELETE', `/v1/roles/${role.id}`),
      ]);
      expect([given.status, deleted.status], `round ${round}`).toSatisfy(([g, d]: number[]) => (g === 201 && d === 409) || (g === 400 && d === 204));
    }
  });
});
