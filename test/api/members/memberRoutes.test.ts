import { insertMember } from '../../support/memberRows.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { injectFault } from '../../../store/simulatorControl.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { addSimulatedUser } from '../../support/simulatedUsers.ts';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';
import { encodeMemberCursor } from '../../../domain/members/memberListCursor.ts';
import { TenantMemberList } from '../../../domain/members/tenantMemberList.ts';

let service: TestService;
/** The same service with AUTH_ENABLED, for scopes and tokens bound to tenants. */
let authenticated: TestService;
/** The same service without its registry cache: every members page is the store's. */
let uncached: TestService;
let issuer: OidcIssuer;
let idp: SimulatedIdentityProvider;
beforeAll(async () => {
  service = await startTestService();
  issuer = await startOidcIssuer();
  authenticated = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
  uncached = await startTestService({ CACHE_TTL_SECONDS: 0 });
  idp = new SimulatedIdentityProvider(service.deps.orm, service.baseUrl);
  service.deps.users = idp;
  authenticated.deps.users = idp;
});
afterAll(async () => {
  await service?.close();
  await authenticated?.close();
  await uncached?.close();
  await issuer?.close();
});

interface Member {
  tenant_id: string;
  user_id: string;
  email: string;
  name: string;
  roles: string[];
  permissions: string[];
  status: string;
  source: string;
  created_at: string;
  updated_at: string;
}

const IT_ADMIN_PERMISSIONS = ['audit:read', 'directory:manage', 'members:manage', 'sso:manage'];

const newTenant = async () => (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('members'), name: 'Members' })).body.tenant as { id: string; slug: string };
const newUser = (user: { email?: string; name?: string } = {}) => addSimulatedUser(service.orm, user);
const path = (tenantId: string, userId?: string, action?: string) =>
  `/v1/tenants/${tenantId}/members${userId === undefined ? '' : `/${encodeURIComponent(userId)}`}${action ? `/${action}` : ''}`;
const put = (tenantId: string, userId: string, roles: unknown) => service.request('PUT', path(tenantId, userId), { roles });
const get = (tenantId: string, userId: string) => service.request('GET', path(tenantId, userId));
const list = (tenantId: string, query: Record<string, string | number | undefined> = {}) =>
  service.request('GET', `${path(tenantId)}?${new URLSearchParams(Object.entries(query).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])))}`);
const deactivate = (tenantId: string, userId: string) => service.request('POST', path(tenantId, userId, 'deactivate'));
const reactivate = (tenantId: string, userId: string) => service.request('POST', path(tenantId, userId, 'reactivate'));
const remove = (tenantId: string, userId: string) => service.request('DELETE', path(tenantId, userId));

/** A new member of the tenant with these roles, made through the API. */
async function member(tenantId: string, roles: string[] = ['MEMBER'], user: { email?: string; name?: string } = {}): Promise<Member> {
  const res = await put(tenantId, await newUser(user), roles);
  expect(res.status).toBe(201);
  return res.body;
}

const eventsOf = (tenantId: string) =>
  service.orm.em
    .fork()
    .execute<{ action: string; target_id: string; target_name: string | null; actor_type: string | null; metadata: any }[]>(
      'select action, target_id, target_name, actor_type, metadata from audit_events where tenant_id = ? and target_type = ? order by id',
      [tenantId, 'member'],
    );
const handOffsOf = (tenantId: string) =>
  service.orm.em
    .fork()
    .execute<{ command: string; payload: any }[]>('select command, payload from tenant_actor_outbox where tenant_id = ? order by id', [tenantId]);
/** Sets a member's stored e-mail, as the migration copies a tenant's admin_email: as it was written. */
const setEmail = (m: Member, email: string) =>
  service.orm.em.fork().execute('update members set email = ? where tenant_id = ? and user_id = ?', [email, m.tenant_id, m.user_id]);
const syncsOf = async (tenantId: string) => (await handOffsOf(tenantId)).filter((h) => h.command === 'syncMember').map((h) => h.payload);

describe('PUT /v1/tenants/{id}/members/{user_id}', () => {
  it("makes a provider's user a member (201): its e-mail and name, active, source registry, roles each once and sorted, their permissions' union; member.added and a syncMember hand-off", async () => {
    const tenant = await newTenant();
    const email = `ada-${randomUUID()}@example.test`;
    const userId = await newUser({ email, name: 'Ada Lovelace' });
    const res = await put(tenant.id, userId, ['MEMBER', 'IT_ADMIN', 'MEMBER']);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      tenant_id: tenant.id,
      user_id: userId,
      email,
      name: 'Ada Lovelace',
      roles: ['IT_ADMIN', 'MEMBER'],
      permissions: IT_ADMIN_PERMISSIONS,
      status: 'active',
      source: 'registry',
      break_glass: false,
      created_at: expect.any(String),
      updated_at: res.body.created_at,
    });
    expect((await get(tenant.id, userId)).body).toEqual(res.body);
    expect(await eventsOf(tenant.id)).toEqual([
      { action: 'member.added', target_id: userId, target_name: email, actor_type: null, metadata: { roles: ['IT_ADMIN', 'MEMBER'], source: 'registry' } },
    ]);
    expect(await syncsOf(tenant.id)).toEqual([{ kind: 'syncMember', user_id: userId }]);
  });

  it("replaces a member's roles (200) with member.roles_changed carrying the old and new roles; the same roles again answer 200 and write nothing", async () => {
    const tenant = await newTenant();
    await member(tenant.id, ['IT_ADMIN']);
    const ada = await member(tenant.id, ['MEMBER']);
    const changed = await put(tenant.id, ada.user_id, ['IT_ADMIN']);
    expect(changed).toMatchObject({ status: 200, body: { user_id: ada.user_id, roles: ['IT_ADMIN'], permissions: IT_ADMIN_PERMISSIONS, status: 'active', created_at: ada.created_at } });
    expect((await eventsOf(tenant.id)).at(-1)).toMatchObject({ action: 'member.roles_changed', target_id: ada.user_id, metadata: { old: ['MEMBER'], new: ['IT_ADMIN'] } });
    const written = [(await eventsOf(tenant.id)).length, (await handOffsOf(tenant.id)).length];
    expect(await put(tenant.id, ada.user_id, ['IT_ADMIN', 'IT_ADMIN'])).toMatchObject({ status: 200, body: changed.body });
    expect([(await eventsOf(tenant.id)).length, (await handOffsOf(tenant.id)).length]).toEqual(written);
    expect(await syncsOf(tenant.id)).toHaveLength(3);
  });

  it("takes the tenant's own roles and shared ones; another tenant's role or an unknown slug is 400 naming them, and nothing is written", async () => {
    const [tenant, other] = [await newTenant(), await newTenant()];
    const own = (await service.request('POST', '/v1/roles', { slug: `Own_${randomUUID().slice(0, 8)}`, name: 'Own', permissions: ['audit:read'], tenant_id: tenant.id })).body;
    const theirs = (await service.request('POST', '/v1/roles', { slug: `Theirs_${randomUUID().slice(0, 8)}`, name: 'Theirs', tenant_id: other.id })).body;
    const userId = await newUser();
    expect((await put(tenant.id, userId, [own.slug, 'MEMBER'])).body).toMatchObject({ roles: [own.slug, 'MEMBER'].sort(), permissions: ['audit:read'] });
    const refused = await put(tenant.id, userId, ['MEMBER', theirs.slug, 'Nope_never']);
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_input', message: `unknown roles for this tenant: ${[theirs.slug, 'Nope_never'].sort().join(', ')}` } });
    const newcomer = await newUser();
    expect((await put(tenant.id, newcomer, ['Nope_never'])).status).toBe(400);
    expect((await get(tenant.id, newcomer)).status).toBe(404);
    expect((await eventsOf(tenant.id)).map((e) => e.action)).toEqual(['member.added']);
    expect(await syncsOf(tenant.id)).toHaveLength(1);
  });

  it('needs at least one role, well-formed slugs and nothing else in the body (400)', async () => {
    const tenant = await newTenant();
    const userId = await newUser();
    for (const body of [{ roles: [] }, {}, { roles: ['has space'] }, { roles: 'MEMBER' }, { roles: ['MEMBER'], status: 'active' }]) {
      expect(await service.request('PUT', path(tenant.id, userId), body), JSON.stringify(body)).toMatchObject({ status: 400, body: { error: 'invalid_input' } });
    }
    expect(await eventsOf(tenant.id)).toEqual([]);
  });

  it("is 404 for a user the provider does not have and for an unknown tenant, 400 for ids of another shape; none writes", async () => {
    const tenant = await newTenant();
    expect(await put(tenant.id, randomUUID(), ['MEMBER'])).toMatchObject({ status: 404, body: { error: 'not_found', message: 'user not found' } });
    expect(await put(randomUUID(), await newUser(), ['MEMBER'])).toMatchObject({ status: 404, body: { message: 'tenant not found' } });
    expect((await put('not-a-uuid', await newUser(), ['MEMBER'])).status).toBe(400);
    expect((await put(tenant.id, 'has space', ['MEMBER'])).status).toBe(400);
    expect((await put(tenant.id, `u${'x'.repeat(255)}`, ['MEMBER'])).status).toBe(400);
    expect(await eventsOf(tenant.id)).toEqual([]);
    expect(await syncsOf(tenant.id)).toEqual([]);
  });

  it('is 503 when the provider cannot be asked for the user, and writes nothing', async () => {
    const tenant = await newTenant();
    const userId = await newUser();
    // The fault is scoped to this tenant's organization, of which the user is made a member in the provider.
    const { organizationId } = await idp.ensureOrganization({ tenantId: tenant.id, slug: tenant.slug, name: 'Members' });
    await idp.ensureMembership(organizationId, userId);
    await injectFault(service.orm, { kind: 'unavailable', step: 'find_user', tenantSlug: tenant.slug, times: 1 });
    expect(await put(tenant.id, userId, ['MEMBER'])).toMatchObject({ status: 503, body: { error: 'unavailable' } });
    expect((await get(tenant.id, userId)).status).toBe(404);
    expect(await syncsOf(tenant.id)).toEqual([]);
    expect((await put(tenant.id, userId, ['MEMBER'])).status).toBe(201);
  });

  it("refuses to demote the tenant's last active IT_ADMIN (409, nothing written); with a second active one it passes", async () => {
    const tenant = await newTenant();
    const admin = await member(tenant.id, ['IT_ADMIN']);
    await member(tenant.id, ['MEMBER']);
    const handOffs = (await handOffsOf(tenant.id)).length;
    expect(await put(tenant.id, admin.user_id, ['MEMBER'])).toMatchObject({ status: 409, body: { error: 'conflict', message: expect.stringContaining('last active IT_ADMIN') } });
    expect((await get(tenant.id, admin.user_id)).body.roles).toEqual(['IT_ADMIN']);
    expect((await handOffsOf(tenant.id)).length).toBe(handOffs);
    await member(tenant.id, ['IT_ADMIN']);
    expect((await put(tenant.id, admin.user_id, ['MEMBER'])).status).toBe(200);
  });

  it("changes an archived tenant's members, as its entitlements and roles may change", async () => {
    const tenant = await newTenant();
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/archive`, {})).status).toBe(200);
    const added = await member(tenant.id, ['IT_ADMIN']);
    expect((await put(tenant.id, added.user_id, ['IT_ADMIN', 'MEMBER'])).status).toBe(200);
  });
});

describe('the last active IT_ADMIN', () => {
  it('cannot be deactivated while it is a member (409) nor removed while the tenant has other members (409); nothing is written', async () => {
    const tenant = await newTenant();
    const admin = await member(tenant.id, ['IT_ADMIN']);
    const other = await member(tenant.id, ['MEMBER']);
    const before = [await eventsOf(tenant.id), await handOffsOf(tenant.id)];
    expect(await deactivate(tenant.id, admin.user_id)).toMatchObject({ status: 409, body: { message: expect.stringContaining('cannot be deactivated') } });
    expect(await remove(tenant.id, admin.user_id)).toMatchObject({ status: 409, body: { message: expect.stringContaining('cannot be removed') } });
    expect([await eventsOf(tenant.id), await handOffsOf(tenant.id)]).toEqual(before);
    expect((await get(tenant.id, admin.user_id)).body).toMatchObject({ status: 'active', roles: ['IT_ADMIN'] });
    expect((await remove(tenant.id, other.user_id)).status).toBe(204);
    expect(await deactivate(tenant.id, admin.user_id)).toMatchObject({ status: 409 });
  });

  it('may go with the tenant\'s last member: removing the only member is 204', async () => {
    const tenant = await newTenant();
    const admin = await member(tenant.id, ['IT_ADMIN']);
    expect((await remove(tenant.id, admin.user_id)).status).toBe(204);
    expect((await list(tenant.id)).body).toEqual({ items: [] });
  });

  it('is not lost when the only IT_ADMIN is pending: it and the others may change', async () => {
    const tenant = await newTenant();
    const invited = await newUser();
    await insertMember(service.orm, { tenantId: tenant.id, userId: invited, status: 'pending', roles: ['IT_ADMIN'] });
    const other = await member(tenant.id, ['MEMBER']);
    expect((await deactivate(tenant.id, other.user_id)).status).toBe(200);
    expect((await put(tenant.id, invited, ['MEMBER'])).body).toMatchObject({ status: 'pending', roles: ['MEMBER'] });
    expect((await remove(tenant.id, invited)).status).toBe(204);
  });

  it('two concurrent changes taking the two active IT_ADMINs away: exactly one passes', async () => {
    for (let round = 0; round < 4; round += 1) {
      const tenant = await newTenant();
      const [a, b] = [await member(tenant.id, ['IT_ADMIN']), await member(tenant.id, ['IT_ADMIN'])];
      await member(tenant.id, ['MEMBER']);
      const answers = await Promise.all(round % 2 === 0 ? [deactivate(tenant.id, a.user_id), deactivate(tenant.id, b.user_id)] : [put(tenant.id, a.user_id, ['MEMBER']), remove(tenant.id, b.user_id)]);
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((status) => status === 409), `round ${round}: ${statuses}`).toHaveLength(1);
      expect(statuses.filter((status) => status !== 409).every((status) => status === 200 || status === 204), `round ${round}: ${statuses}`).toBe(true);
      const active = (await list(tenant.id, { role: 'IT_ADMIN', status: 'active' })).body.items;
      expect(active, `round ${round}`).toHaveLength(1);
    }
  });
});

describe('POST .../deactivate and .../reactivate', () => {
  it('deactivates (member.deactivated, its roles kept) and reactivates (member.reactivated); each again answers 200 and writes nothing', async () => {
    const tenant = await newTenant();
    await member(tenant.id, ['IT_ADMIN']);
    const ada = await member(tenant.id, ['MEMBER']);
    const off = await deactivate(tenant.id, ada.user_id);
    expect(off).toMatchObject({ status: 200, body: { status: 'inactive', roles: ['MEMBER'] } });
    expect(await deactivate(tenant.id, ada.user_id)).toMatchObject({ status: 200, body: off.body });
    const on = await reactivate(tenant.id, ada.user_id);
    expect(on).toMatchObject({ status: 200, body: { status: 'active', roles: ['MEMBER'] } });
    expect(await reactivate(tenant.id, ada.user_id)).toMatchObject({ status: 200, body: on.body });
    const events = (await eventsOf(tenant.id)).filter((e) => e.target_id === ada.user_id);
    expect(events.map((e) => [e.action, e.metadata])).toEqual([
      ['member.added', { roles: ['MEMBER'], source: 'registry' }],
      ['member.deactivated', { from: 'active', to: 'inactive' }],
      ['member.reactivated', { from: 'inactive', to: 'active' }],
    ]);
    expect((await syncsOf(tenant.id)).filter((s) => s.user_id === ada.user_id)).toHaveLength(3);
  });

  it('leaves a pending member pending on reactivate; deactivates it', async () => {
    const tenant = await newTenant();
    const invited = await newUser();
    await insertMember(service.orm, { tenantId: tenant.id, userId: invited, status: 'pending', roles: ['IT_ADMIN'] });
    expect((await reactivate(tenant.id, invited)).body.status).toBe('pending');
    expect((await deactivate(tenant.id, invited)).body.status).toBe('inactive');
    expect((await eventsOf(tenant.id)).map((e) => e.action)).toEqual(['member.deactivated']);
  });

  it('is 404 for a user that is not a member and for an unknown tenant', async () => {
    const tenant = await newTenant();
    for (const call of [deactivate, reactivate]) {
      expect(await call(tenant.id, await newUser()), call.name).toMatchObject({ status: 404, body: { message: 'member not found' } });
      expect(await call(randomUUID(), await newUser()), call.name).toMatchObject({ status: 404, body: { message: 'tenant not found' } });
    }
  });
});

describe('DELETE /v1/tenants/{id}/members/{user_id}', () => {
  it('removes the member (204) with member.removed and a syncMember hand-off; then it is 404', async () => {
    const tenant = await newTenant();
    await member(tenant.id, ['IT_ADMIN']);
    const ada = await member(tenant.id, ['MEMBER']);
    expect((await remove(tenant.id, ada.user_id)).status).toBe(204);
    expect((await get(tenant.id, ada.user_id)).status).toBe(404);
    expect((await eventsOf(tenant.id)).at(-1)).toMatchObject({
      action: 'member.removed',
      target_id: ada.user_id,
      target_name: ada.email,
      metadata: { roles: ['MEMBER'], status: 'active', source: 'registry' },
    });
    expect((await syncsOf(tenant.id)).filter((s) => s.user_id === ada.user_id)).toHaveLength(2);
    expect(await remove(tenant.id, ada.user_id)).toMatchObject({ status: 404, body: { message: 'member not found' } });
    expect((await syncsOf(tenant.id)).filter((s) => s.user_id === ada.user_id)).toHaveLength(2);
  });
});

describe('GET /v1/tenants/{id}/members', () => {
  /** A tenant with members of these e-mails and names (each also a user of the provider). */
  async function tenantWith(people: { email: string; name: string; roles?: string[] }[]) {
    const tenant = await newTenant();
    const run = randomUUID().slice(0, 6);
    const made: Member[] = [];
    for (const p of people) made.push(await member(tenant.id, p.roles ?? ['MEMBER'], { email: p.email.replace('@', `+${run}@`), name: p.name }));
    return { tenant, made };
  }

  it('lists by e-mail, case-insensitively, then user id; an empty tenant lists nothing, an unknown one is 404', async () => {
    const { tenant, made } = await tenantWith([
      { email: 'carol@b.test', name: 'Carol' },
      { email: 'alice@b.test', name: 'Alice', roles: ['IT_ADMIN'] },
      { email: 'bob@b.test', name: 'Bob' },
      { email: 'bob2@b.test', name: 'Bob 2' },
    ]);
    // The provider keeps e-mails lower-cased; a migrated IT_ADMIN's is the tenant's admin_email as it was written.
    await setEmail(made[1]!, made[1]!.email.replace('alice', 'Alice'));
    await setEmail(made[3]!, made[2]!.email.toUpperCase());
    const bobs = [made[2]!, made[3]!].sort((x, y) => (x.user_id < y.user_id ? -1 : 1)).map((m) => m.name);
    const res = await list(tenant.id);
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeUndefined();
    expect(res.body.items.map((m: Member) => m.name)).toEqual(['Alice', ...bobs, 'Carol']);
    expect(res.body.items).toContainEqual({ ...made[0], updated_at: expect.any(String) });
    expect(res.body.items[0]).toMatchObject({ user_id: made[1]!.user_id, roles: ['IT_ADMIN'], permissions: IT_ADMIN_PERMISSIONS });
    expect((await list((await newTenant()).id)).body).toEqual({ items: [] });
    expect(await list(randomUUID())).toMatchObject({ status: 404, body: { message: 'tenant not found' } });
  });

  it('filters by role, status and q (a case-insensitive prefix of the e-mail or name, its LIKE wildcards literal)', async () => {
    const { tenant, made } = await tenantWith([
      { email: 'dora@x.test', name: 'Zed Dora', roles: ['IT_ADMIN'] },
      { email: 'dan@x.test', name: 'Dan' },
      { email: 'erin@x.test', name: 'DOROTHY' },
      { email: 'd_n@x.test', name: 'Under Score' },
      { email: 'd%n@x.test', name: 'Per Cent' },
    ]);
    const names = async (query: Record<string, string>) => (await list(tenant.id, query)).body.items.map((m: Member) => m.name);
    await deactivate(tenant.id, made[1]!.user_id);
    expect(await names({ role: 'IT_ADMIN' })).toEqual(['Zed Dora']);
    expect(await names({ role: 'MEMBER', status: 'active' })).toEqual(['Per Cent', 'Under Score', 'DOROTHY']);
    expect(await names({ status: 'inactive' })).toEqual(['Dan']);
    expect(await names({ status: 'pending' })).toEqual([]);
    expect(await names({ role: 'No_such_role' })).toEqual([]);
    expect(await names({ q: 'DOR' })).toEqual(['Zed Dora', 'DOROTHY']);
    expect(await names({ q: 'zed' })).toEqual(['Zed Dora']);
    expect(await names({ q: 'd_' })).toEqual(['Under Score']);
    expect(await names({ q: 'd%' })).toEqual(['Per Cent']);
    expect(await names({ q: 'dor', role: 'MEMBER' })).toEqual(['DOROTHY']);
    for (const query of [{ status: 'gone' }, { role: 'has space' }, { q: '' }, { limit: '0' }, { limit: '501' }, { cursor: 'not a cursor' }, { cursor: 'bm90IGpzb24' }] as Record<string, string>[]) {
      expect(await list(tenant.id, query), JSON.stringify(query)).toMatchObject({ status: 400, body: { error: 'invalid_input' } });
    }
  });

  it('pages with next_cursor until the last page, which has none, under every filter; limit defaults to 50', async () => {
    const people = Array.from({ length: 7 }, (_, i) => ({ email: `p${i}@page.test`, name: `Person ${i}`, roles: i === 0 ? ['IT_ADMIN'] : ['MEMBER'] }));
    const { tenant, made } = await tenantWith(people);
    // Pages break inside runs of one e-mail too (possible for migrated members), which the user id orders.
    for (const [i, m] of made.entries()) await setEmail(m, `P${i % 3}@page.test`);
    const all = (await list(tenant.id)).body.items.map((m: Member) => m.user_id);
    expect(all).toHaveLength(7);
    for (const filter of [{}, { role: 'MEMBER' }, { q: 'p1' }] as Record<string, string>[]) {
      const expected = (await list(tenant.id, filter)).body.items.map((m: Member) => m.user_id);
      const walked: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await list(tenant.id, { ...filter, limit: 2, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        walked.push(...res.body.items.map((m: Member) => m.user_id));
        cursor = res.body.next_cursor;
        pages += 1;
      } while (cursor);
      expect(walked, JSON.stringify(filter)).toEqual(expected);
      expect(pages, JSON.stringify(filter)).toBe(Math.max(1, Math.ceil(expected.length / 2)));
    }
    const many = await tenantWith(Array.from({ length: 51 }, (_, i) => ({ email: `m${String(i).padStart(2, '0')}@many.test`, name: `M ${i}` })));
    const first = await list(many.tenant.id);
    expect(first.body.items).toHaveLength(50);
    expect((await list(many.tenant.id, { cursor: first.body.next_cursor })).body.items).toHaveLength(1);
  });
});

describe('GET /v1/tenants/{id}/members from the registry cache', () => {
  /** Members written straight into the tables: e-mails and names no provider would keep, in every case and script. */
  async function insertListed(tenantId: string, rows: [userId: string, email: string, name: string, status: string, roles: string[]][]) {
    for (const [userId, email, name, status, roles] of rows) {
      await service.orm.em.fork().execute(`insert into members (tenant_id, user_id, email, name, status, source) values (?, ?, ?, ?, ?, 'directory')`, [tenantId, userId, email, name, status]);
      for (const slug of roles) {
        await service.orm.em.fork().execute(
          `insert into member_roles (tenant_id, user_id, role_id) select ?, ?, id from roles where slug = ? and (tenant_id is null or tenant_id = ?)`,
          [tenantId, userId, slug, tenantId],
        );
      }
    }
  }

  const raw = async (at: TestService, tenantId: string, query: Record<string, string>) => {
    const res = await fetch(`${at.baseUrl}${path(tenantId)}?${new URLSearchParams(query)}`);
    return { status: res.status, type: res.headers.get('content-type'), length: res.headers.get('content-length'), text: await res.text() };
  };

  it("answers every page byte for byte as the store's page: every filter, limit and cursor over members of every case and script", async () => {
    const tenant = await newTenant();
    const own = `Own_${randomUUID().slice(0, 8)}`;
    expect((await service.request('POST', '/v1/roles', { slug: own, name: 'Own', permissions: ['sso:manage', 'audit:read'], tenant_id: tenant.id })).status).toBe(201);
    await insertListed(tenant.id, [
      ['zed', 'Zed@Example.test', 'Zed', 'active', ['MEMBER']],
      ['ada-2', 'ada@example.test', 'Ada Two', 'active', ['IT_ADMIN']],
      ['ada-1', 'ADA@example.test', 'Ada One', 'inactive', ['MEMBER', own]],
      ['Émile', 'émile@example.test', 'Émile Zola', 'active', [own]],
      ['emile', 'Émile@example.test', 'émile', 'pending', ['MEMBER']],
      ['fw', '\uff41bc@example.test', '\uff26ull Width', 'active', ['MEMBER']],
      ['emoji', '\u{1f600}@example.test', '\u{1f600} Smile', 'active', ['MEMBER']],
      ['nonchar', '\uffff@example.test', 'Non Char', 'active', ['MEMBER']],
      ['under', 'd_n@example.test', 'Under_Score', 'active', ['MEMBER']],
      ['pct', 'd%n@example.test', '100% Sure', 'active', ['MEMBER']],
      ['bs', 'back\\slash@example.test', 'Back\\Slash', 'active', ['MEMBER']],
      ['dup-b', 'same@example.test', 'Same B', 'active', ['MEMBER']],
      ['dup-a', 'same@example.test', 'Same A', 'inactive', ['MEMBER']],
      ['dup-C', 'SAME@example.test', 'Same C', 'active', ['MEMBER', 'IT_ADMIN']],
      ['ß', 'straße@example.test', 'Straße', 'active', ['MEMBER']],
      ['tr', 'İstanbul@example.test', 'İSTANBUL', 'active', ['MEMBER']],
      ['empty', '', '', 'active', ['MEMBER']],
      ['quote', 'quote"@example.test', 'Quote "Q" \u2028', 'active', ['MEMBER']],
      ['ctl', 'tab\t@example.test', 'Line\nBreak', 'active', ['MEMBER']],
      ['x', 'x@example.test', 'Alpha', 'pending', ['IT_ADMIN', 'MEMBER']],
      ['none', 'none@example.test', 'No Roles', 'active', []],
    ]);
    const filters: Record<string, string>[] = [
      {}, { status: 'active' }, { status: 'inactive' }, { status: 'pending' }, { role: 'IT_ADMIN' }, { role: 'MEMBER' }, { role: own }, { role: 'Nobody' },
      { q: 'a' }, { q: 'ADA' }, { q: 's' }, { q: 'same@' }, { q: 'd_' }, { q: 'd%' }, { q: '\\' }, { q: 'é' }, { q: 'É' }, { q: 'i' }, { q: 'I' },
      { q: '\u{1f600}' }, { q: '"' }, { q: 'z' }, { q: 'İ' }, { q: 'ẞ' }, { q: 'Ｆ' }, { q: 'same', status: 'active', role: 'MEMBER' }, { q: 'e', role: 'MEMBER' },
    ];
    let pages = 0;
    for (const filter of filters) {
      for (const limit of [undefined, 1, 3, 7]) {
        let cursor: string | undefined;
        do {
          const query = { ...filter, ...(limit ? { limit: String(limit) } : {}), ...(cursor ? { cursor } : {}) };
          const fromStore = await raw(uncached, tenant.id, query);
          expect(fromStore.status).toBe(200);
          expect(await raw(service, tenant.id, query), JSON.stringify(query)).toEqual(fromStore);
          cursor = JSON.parse(fromStore.text).next_cursor;
          pages += 1;
        } while (cursor);
      }
    }
    const cursors = [
      { email: 'same@example.test', userId: 'dup-b' }, { email: 'same@example.test', userId: 'dup-C' }, { email: '\uffff', userId: 'a' },
      { email: '\ud83d', userId: 'x' }, { email: 'm', userId: '\u{1f600}' }, { email: '', userId: 'a' }, { email: 'Z', userId: 'a' },
    ];
    for (const position of cursors) {
      const query = { cursor: encodeMemberCursor(position), limit: '4' };
      expect(await raw(service, tenant.id, query), JSON.stringify(position)).toEqual(await raw(uncached, tenant.id, query));
    }
    expect(pages).toBeGreaterThan(100);
    // The pages above came from memory: the tenant's list is held.
    expect(service.deps.cache.memberLists.get(tenant.id)).toBeInstanceOf(TenantMemberList);
  });

  it("a member added, changed, deactivated or removed through this replica, or its role's permissions changed, is in the list at once", async () => {
    const tenant = await newTenant();
    const admin = await member(tenant.id, ['IT_ADMIN']);
    const items = async (query: Record<string, string> = {}) => (await list(tenant.id, query)).body.items as Member[];
    expect((await items()).map((m) => m.user_id)).toEqual([admin.user_id]);
    expect(service.deps.cache.memberLists.get(tenant.id)).toBeInstanceOf(TenantMemberList);

    const ada = await member(tenant.id, ['MEMBER']);
    expect((await items()).map((m) => m.user_id).sort()).toEqual([admin.user_id, ada.user_id].sort());
    expect((await put(tenant.id, ada.user_id, ['IT_ADMIN'])).status).toBe(200);
    expect((await items({ role: 'IT_ADMIN' })).map((m) => m.user_id).sort()).toEqual([admin.user_id, ada.user_id].sort());
    expect((await deactivate(tenant.id, ada.user_id)).status).toBe(200);
    expect((await items({ status: 'inactive' })).map((m) => m.user_id)).toEqual([ada.user_id]);
    expect((await reactivate(tenant.id, ada.user_id)).status).toBe(200);
    expect(await items({ status: 'inactive' })).toEqual([]);
    expect((await remove(tenant.id, ada.user_id)).status).toBe(204);
    expect((await items()).map((m) => m.user_id)).toEqual([admin.user_id]);

    const role = (await service.request('POST', '/v1/roles', { slug: `Viewer_${randomUUID().slice(0, 8)}`, name: 'Viewer', tenant_id: tenant.id })).body;
    const viewer = await member(tenant.id, [role.slug]);
    expect((await items({ role: role.slug }))[0]).toMatchObject({ user_id: viewer.user_id, permissions: [] });
    expect((await service.request('PATCH', `/v1/roles/${role.id}`, { permissions: ['audit:read'] })).status).toBe(200);
    expect((await items({ role: role.slug }))[0]).toMatchObject({ user_id: viewer.user_id, permissions: ['audit:read'] });
    expect(service.deps.cache.memberLists.get(tenant.id)).toBeInstanceOf(TenantMemberList);
  });
});

describe('GET /v1/tenants/{id}/members/{user_id}', () => {
  it('answers a member; a user that is not one, or another tenant\'s member, is 404', async () => {
    const [tenant, other] = [await newTenant(), await newTenant()];
    const ada = await member(tenant.id, ['IT_ADMIN']);
    expect(await get(tenant.id, ada.user_id)).toMatchObject({ status: 200, body: ada });
    expect(await get(other.id, ada.user_id)).toMatchObject({ status: 404, body: { message: 'member not found' } });
    expect((await get(tenant.id, await newUser())).status).toBe(404);
    expect((await get('not-a-uuid', ada.user_id)).status).toBe(400);
  });
});

describe('members and roles', () => {
  it("a role a member holds cannot be deleted (409); a change of its permissions reaches its holders and queues a claims push to each of their tenants", async () => {
    const [a, b, bystander] = [await newTenant(), await newTenant(), await newTenant()];
    const role = (await service.request('POST', '/v1/roles', { slug: `Shared_${randomUUID().slice(0, 8)}`, name: 'Shared', permissions: ['audit:read'] })).body;
    const holder = await member(a.id, [role.slug]);
    await member(b.id, [role.slug, 'MEMBER']);
    await member(bystander.id, ['MEMBER']);
    expect(await service.request('DELETE', `/v1/roles/${role.id}`)).toMatchObject({ status: 409, body: { message: expect.stringContaining('2 member(s) hold') } });
    const pushes = async (tenantId: string) => (await handOffsOf(tenantId)).filter((h) => h.command === 'pushClaims').length;
    const before = await Promise.all([a, b, bystander].map((t) => pushes(t.id)));
    expect((await service.request('PATCH', `/v1/roles/${role.id}`, { name: 'Renamed' })).status).toBe(200);
    expect(await Promise.all([a, b, bystander].map((t) => pushes(t.id)))).toEqual(before);
    expect((await service.request('PATCH', `/v1/roles/${role.id}`, { permissions: ['audit:read', 'sso:manage'] })).status).toBe(200);
    expect(await Promise.all([a, b, bystander].map((t) => pushes(t.id)))).toEqual([before[0]! + 1, before[1]! + 1, before[2]]);
    expect((await get(a.id, holder.user_id)).body.permissions).toEqual(['audit:read', 'sso:manage']);
    expect((await remove(a.id, holder.user_id)).status).toBe(204);
  });
});

describe('scopes and tokens bound to tenants (AUTH_ENABLED)', () => {
  const bearer = async (scope: string, tenantId?: string) => ({
    authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: 'portal', scope, ...(tenantId ? { tenant_id: tenantId } : {}) })}`,
  });

  it('members:read reads members but changes none (403); members:write changes them', async () => {
    const tenant = await newTenant();
    const admin = await member(tenant.id, ['IT_ADMIN']);
    const reader = await bearer('members:read');
    const writer = await bearer('members:write');
    expect((await authenticated.request('GET', path(tenant.id), undefined, reader)).status).toBe(200);
    expect((await authenticated.request('GET', path(tenant.id, admin.user_id), undefined, reader)).status).toBe(200);
    const userId = await newUser();
    for (const [method, at, body] of [
      ['PUT', path(tenant.id, userId), { roles: ['MEMBER'] }],
      ['POST', path(tenant.id, admin.user_id, 'deactivate')],
      ['POST', path(tenant.id, admin.user_id, 'reactivate')],
      ['DELETE', path(tenant.id, admin.user_id)],
    ] as [string, string, unknown?][]) {
      expect(await authenticated.request(method, at, body, reader), `${method} ${at}`).toMatchObject({ status: 403, body: { message: expect.stringContaining('members:write') } });
    }
    expect((await authenticated.request('GET', path(tenant.id), undefined, await bearer('tenants:read'))).status).toBe(403);
    expect((await authenticated.request('PUT', path(tenant.id, userId), { roles: ['MEMBER'] }, writer)).status).toBe(201);
    expect((await authenticated.request('POST', path(tenant.id, userId, 'deactivate'), undefined, writer)).status).toBe(200);
    expect((await authenticated.request('DELETE', path(tenant.id, userId), undefined, writer)).status).toBe(204);
  });

  it("a token bound to a tenant reaches its own tenant's members and gets 404 for another's, changing nothing", async () => {
    const [mine, other] = [await newTenant(), await newTenant()];
    const theirs = await member(other.id, ['IT_ADMIN']);
    const bound = await bearer('members:read members:write', mine.id);
    const userId = await newUser();
    expect((await authenticated.request('PUT', path(mine.id, userId), { roles: ['IT_ADMIN'] }, bound)).status).toBe(201);
    expect((await authenticated.request('GET', path(mine.id), undefined, bound)).body.items.map((m: Member) => m.user_id)).toEqual([userId]);
    for (const [method, at, body] of [
      ['GET', path(other.id)],
      ['GET', path(other.id, theirs.user_id)],
      ['PUT', path(other.id, theirs.user_id), { roles: ['MEMBER', 'IT_ADMIN'] }],
      ['PUT', path(other.id, userId), { roles: ['MEMBER'] }],
      ['POST', path(other.id, theirs.user_id, 'deactivate')],
      ['POST', path(other.id, theirs.user_id, 'reactivate')],
      ['DELETE', path(other.id, theirs.user_id)],
    ] as [string, string, unknown?][]) {
      expect(await authenticated.request(method, at, body, bound), `${method} ${at}`).toMatchObject({ status: 404, body: { error: 'not_found', message: 'tenant not found' } });
    }
    expect((await list(other.id)).body.items).toEqual([theirs]);
  });
});
