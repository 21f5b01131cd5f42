import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServicePair, type ServicePair } from '../../support/servicePair.ts';
import { uniqueSlug } from '../../support/testService.ts';

/** The service, and its twin with AUTH_ENABLED for the scopes and tenant bindings of tokens. */
let pair: ServicePair;
beforeAll(async () => {
  pair = await startServicePair();
});
afterAll(() => pair?.close());

/** A role slug no other test of the run uses. */
const uniqueRole = (stem = 'Role') => `${stem}_${randomUUID().slice(0, 8)}`;
const newTenant = async () => (await pair.service.request('POST', '/v1/tenants', { slug: uniqueSlug('roles'), name: 'Roles' })).body.tenant.id as string;
const create = (body: Record<string, unknown>) => pair.service.request('POST', '/v1/roles', body);
const list = (tenantId?: string) => pair.service.request('GET', `/v1/roles${tenantId ? `?tenant_id=${tenantId}` : ''}`);
const patch = (id: string, body: unknown) => pair.service.request('PATCH', `/v1/roles/${id}`, body);
const remove = (id: string) => pair.service.request('DELETE', `/v1/roles/${id}`);
const builtIn = async (slug: string) => (await list()).body.items.find((r: { slug: string }) => r.slug === slug);
const eventsOf = (roleId: string) =>
  pair.service.orm.em
    .fork()
    .execute<{ action: string; tenant_id: string | null; target_name: string; metadata: any }[]>(
      'select action, tenant_id, target_name, metadata from audit_events where target_type = ? and target_id = ? order by id',
      ['role', roleId],
    );

describe('GET /v1/roles', () => {
  it('lists the built-in shared roles: IT_ADMIN with its four permissions sorted, MEMBER with none', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.items.find((r: { slug: string }) => r.slug === 'IT_ADMIN')).toEqual({
      id: expect.any(String),
      slug: 'IT_ADMIN',
      name: expect.any(String),
      description: expect.any(String),
      permissions: ['audit:read', 'directory:manage', 'members:manage', 'sso:manage'],
      tenant_id: null,
      built_in: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await builtIn('MEMBER')).toMatchObject({ permissions: [], tenant_id: null, built_in: true });
    expect(res.body.items.every((r: { tenant_id: string | null }) => r.tenant_id === null)).toBe(true);
  });

  it("with tenant_id: every shared role, then that tenant's own, never another tenant's", async () => {
    const [mine, other] = [await newTenant(), await newTenant()];
    const own = (await create({ slug: uniqueRole('Own'), name: 'Own', tenant_id: mine })).body;
    const theirs = (await create({ slug: uniqueRole('Theirs'), name: 'Theirs', tenant_id: other })).body;
    const items = (await list(mine)).body.items as { id: string; tenant_id: string | null }[];
    const shared = (await list()).body.items as { id: string }[];
    expect(items.map((r) => r.id)).toEqual([...shared.map((r) => r.id), own.id]);
    expect(items.map((r) => r.id)).not.toContain(theirs.id);
  });

  it('an unknown tenant is 404, a tenant_id that is not a uuid 400', async () => {
    expect(await list(randomUUID())).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect((await list('not-a-uuid')).status).toBe(400);
  });
});

describe('POST /v1/roles', () => {
  it('creates a tenant role (201) with its permissions sorted and each once, and appends role.created', async () => {
    const tenant = await newTenant();
    const slug = uniqueRole();
    const res = await create({ slug, name: 'Billing', description: 'pays', permissions: ['sso:manage', 'audit:read', 'audit:read'], tenant_id: tenant });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      slug,
      name: 'Billing',
      description: 'pays',
      permissions: ['audit:read', 'sso:manage'],
      tenant_id: tenant,
      built_in: false,
      created_at: expect.any(String),
      updated_at: res.body.created_at,
    });
    expect((await list(tenant)).body.items).toContainEqual(res.body);
    expect(await eventsOf(res.body.id)).toEqual([
      { action: 'role.created', tenant_id: tenant, target_name: slug, metadata: { name: 'Billing', description: 'pays', permissions: ['audit:read', 'sso:manage'], shared: false } },
    ]);
  });

  it('creates a shared role without tenant_id or with null; every tenant lists it', async () => {
    const a = await create({ slug: uniqueRole('Shared'), name: 'Shared' });
    const b = await create({ slug: uniqueRole('Shared'), name: 'Shared', tenant_id: null });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body).toMatchObject({ tenant_id: null, permissions: [], description: '' });
    const ids = (await list(await newTenant())).body.items.map((r: { id: string }) => r.id);
    expect(ids).toEqual(expect.arrayContaining([a.body.id, b.body.id]));
    expect((await eventsOf(a.body.id))[0]).toMatchObject({ action: 'role.created', tenant_id: null });
  });

  it('takes slugs of ^[A-Za-z][A-Za-z0-9_:-]{0,63}$ and refuses others with 400', async () => {
    const tenant = await newTenant();
    for (const slug of ['a', 'IT-admin:billing_2', `Z${'z'.repeat(63)}`]) expect((await create({ slug, name: 'Ok', tenant_id: tenant })).status, slug).toBe(201);
    for (const slug of ['', '1admin', '_admin', 'has space', 'émile', `Z${'z'.repeat(64)}`]) {
      expect(await create({ slug, name: 'Bad', tenant_id: tenant }), slug).toMatchObject({ status: 400, body: { error: 'invalid_input' } });
    }
    expect((await create({ slug: uniqueRole(), name: '', tenant_id: tenant })).status).toBe(400);
    expect((await create({ slug: uniqueRole(), name: 'Extra', tenant_id: tenant, built_in: true })).status).toBe(400);
  });

  it('a slug is unique within a tenant and among the shared roles; two tenants may share one: 409 otherwise', async () => {
    const [a, b] = [await newTenant(), await newTenant()];
    const slug = uniqueRole();
    expect((await create({ slug, name: 'A', tenant_id: a })).status).toBe(201);
    expect((await create({ slug, name: 'B', tenant_id: b })).status).toBe(201);
    expect(await create({ slug, name: 'A again', tenant_id: a })).toMatchObject({ status: 409, body: { error: 'conflict' } });
    const shared = uniqueRole('Shared');
    expect((await create({ slug: shared, name: 'Shared' })).status).toBe(201);
    expect((await create({ slug: shared, name: 'Shared again' })).status).toBe(409);
  });

  it("a tenant's role may not take a shared role's slug, nor a new shared role a slug a tenant uses: 409, nothing written", async () => {
    const tenant = await newTenant();
    for (const slug of ['IT_ADMIN', 'MEMBER']) expect((await create({ slug, name: 'Mine', tenant_id: tenant })).status, slug).toBe(409);
    const slug = uniqueRole();
    await create({ slug, name: 'Tenant', tenant_id: tenant });
    expect(await create({ slug, name: 'For all' })).toMatchObject({ status: 409, body: { message: expect.stringContaining('a tenant has a role') } });
    expect((await list()).body.items.map((r: { slug: string }) => r.slug)).not.toContain(slug);
  });

  it('a shared and a tenant role of one new slug created at once: exactly one is created', async () => {
    const tenant = await newTenant();
    for (let round = 0; round < 5; round += 1) {
      const slug = uniqueRole('Race');
      const answers = await Promise.all([create({ slug, name: 'Shared' }), create({ slug, name: 'Tenant', tenant_id: tenant })]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    }
  });

  it('a permission that does not exist is 400, a tenant that does not exist 404; neither writes anything', async () => {
    const tenant = await newTenant();
    const slug = uniqueRole();
    expect(await create({ slug, name: 'X', permissions: ['audit:read', 'nope:never'], tenant_id: tenant })).toMatchObject({
      status: 400,
      body: { error: 'invalid_input', message: 'unknown permission: nope:never' },
    });
    expect(await create({ slug, name: 'X', tenant_id: randomUUID() })).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect((await create({ slug, name: 'X', permissions: ['Bad Slug'], tenant_id: tenant })).status).toBe(400);
    expect((await list(tenant)).body.items.map((r: { slug: string }) => r.slug)).not.toContain(slug);
  });

  it('the role and role.created commit together: an audit append that fails leaves no role', async () => {
    const slug = uniqueRole('Atomic');
    const execute = (sql: string) => pair.service.orm.em.fork().execute(sql);
    await execute(`alter table audit_events add constraint refuse_atomic_probe check (target_name is distinct from '${slug}') not valid`);
    try {
      expect((await create({ slug, name: 'Atomic' })).status).toBe(500);
    } finally {
      await execute('alter table audit_events drop constraint refuse_atomic_probe');
    }
    expect((await list()).body.items.map((r: { slug: string }) => r.slug)).not.toContain(slug);
    expect((await create({ slug, name: 'Atomic' })).status).toBe(201);
  });
});

describe('PATCH /v1/roles/{id}', () => {
  it('replaces name, description and the whole permission set; role.updated carries old and new of what changed', async () => {
    const tenant = await newTenant();
    const role = (await create({ slug: uniqueRole(), name: 'Ops', description: 'runs', permissions: ['audit:read'], tenant_id: tenant })).body;
    const res = await patch(role.id, { name: 'Operations', permissions: ['sso:manage', 'members:manage'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: role.id, slug: role.slug, name: 'Operations', description: 'runs', permissions: ['members:manage', 'sso:manage'] });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(role.updated_at));
    expect((await list(tenant)).body.items).toContainEqual(res.body);
    const events = await eventsOf(role.id);
    expect(events.map((e) => e.action)).toEqual(['role.created', 'role.updated']);
    expect(events[1]).toMatchObject({
      tenant_id: tenant,
      metadata: { changes: { name: { old: 'Ops', new: 'Operations' }, permissions: { old: ['audit:read'], new: ['members:manage', 'sso:manage'] } } },
    });
  });

  it('a PATCH that changes nothing answers the role and appends nothing', async () => {
    const role = (await create({ slug: uniqueRole(), name: 'Same', permissions: ['audit:read'] })).body;
    const res = await patch(role.id, { name: 'Same', permissions: ['audit:read'] });
    expect(res).toMatchObject({ status: 200, body: role });
    expect((await eventsOf(role.id)).map((e) => e.action)).toEqual(['role.created']);
  });

  it("changes a built-in role's permissions: they may change", async () => {
    const member = await builtIn('MEMBER');
    try {
      const res = await patch(member.id, { permissions: ['audit:read'] });
      expect(res).toMatchObject({ status: 200, body: { slug: 'MEMBER', built_in: true, permissions: ['audit:read'] } });
    } finally {
      expect((await patch(member.id, { permissions: member.permissions })).status).toBe(200);
    }
  });

  it('an unknown permission is 400, no such role 404, an id that is not a uuid 400, an unknown field 400; none writes', async () => {
    const role = (await create({ slug: uniqueRole(), name: 'Kept' })).body;
    expect(await patch(role.id, { name: 'Changed', permissions: ['nope:never'] })).toMatchObject({ status: 400, body: { message: 'unknown permission: nope:never' } });
    expect(await patch(randomUUID(), { name: 'x' })).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect((await patch('not-a-uuid', { name: 'x' })).status).toBe(400);
    expect((await patch(role.id, { slug: 'Renamed' })).status).toBe(400);
    expect((await patch(role.id, { name: '' })).status).toBe(400);
    expect((await eventsOf(role.id)).map((e) => e.action)).toEqual(['role.created']);
  });
});

describe('DELETE /v1/roles/{id}', () => {
  it('deletes the role (204) with role.deleted; then it is gone: PATCH and DELETE are 404 (an id that is not a uuid 400)', async () => {
    const tenant = await newTenant();
    const role = (await create({ slug: uniqueRole(), name: 'Gone', permissions: ['audit:read'], tenant_id: tenant })).body;
    expect((await remove(role.id)).status).toBe(204);
    expect((await list(tenant)).body.items.map((r: { id: string }) => r.id)).not.toContain(role.id);
    expect((await eventsOf(role.id)).at(-1)).toMatchObject({
      action: 'role.deleted',
      tenant_id: tenant,
      metadata: { name: 'Gone', description: '', permissions: ['audit:read'], shared: false },
    });
    expect((await patch(role.id, { name: 'Back' })).status).toBe(404);
    expect((await remove(role.id)).status).toBe(404);
    expect((await remove('not-a-uuid')).status).toBe(400);
  });

  it('keeps the built-in roles: 409', async () => {
    for (const slug of ['IT_ADMIN', 'MEMBER']) {
      expect(await remove((await builtIn(slug)).id), slug).toMatchObject({ status: 409, body: { error: 'conflict', message: expect.stringContaining('built-in') } });
    }
  });

  it("frees the slug: a deleted shared role's slug can be taken again", async () => {
    const slug = uniqueRole('Again');
    const role = (await create({ slug, name: 'First' })).body;
    await remove(role.id);
    expect((await create({ slug, name: 'Second', tenant_id: await newTenant() })).status).toBe(201);
  });
});

describe('a token bound to tenants (AUTH_ENABLED), whatever its scopes (members:read members:write here)', () => {
  const bearer = async (tenantId?: string) => ({
    authorization: `Bearer ${await pair.issuer.sign({ aud: 'tenant-registry', azp: 'portal', scope: 'members:read members:write', ...(tenantId ? { tenant_id: tenantId } : {}) })}`,
  });
  const call = async (method: string, path: string, body: unknown, tenantId: string) => pair.authenticated.request(method, path, body, await bearer(tenantId));

  it("lists, creates, changes and deletes its own tenant's roles", async () => {
    const mine = await newTenant();
    const created = await call('POST', '/v1/roles', { slug: uniqueRole('Mine'), name: 'Mine', tenant_id: mine }, mine);
    expect(created.status).toBe(201);
    expect((await call('GET', `/v1/roles?tenant_id=${mine}`, undefined, mine)).body.items.map((r: { id: string }) => r.id)).toContain(created.body.id);
    expect((await call('PATCH', `/v1/roles/${created.body.id}`, { name: 'Still mine' }, mine)).status).toBe(200);
    expect((await call('DELETE', `/v1/roles/${created.body.id}`, undefined, mine)).status).toBe(204);
    expect((await eventsOf(created.body.id)).map((e) => e.action)).toEqual(['role.created', 'role.updated', 'role.deleted']);
  });

  it("gets 404 for another tenant and its roles, exactly as for ones that do not exist, and changes nothing", async () => {
    const [mine, other] = [await newTenant(), await newTenant()];
    const theirs = (await create({ slug: uniqueRole('Theirs'), name: 'Theirs', tenant_id: other })).body;
    for (const [method, path, body] of [
      ['GET', `/v1/roles?tenant_id=${other}`],
      ['POST', '/v1/roles', { slug: uniqueRole('Stolen'), name: 'Stolen', tenant_id: other }],
      ['PATCH', `/v1/roles/${theirs.id}`, { name: 'Taken', permissions: ['members:manage'] }],
      ['DELETE', `/v1/roles/${theirs.id}`],
    ] as [string, string, unknown?][]) {
      const res = await call(method, path, body, mine);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error, `${method} ${path}`).toBe('not_found');
    }
    expect((await list(other)).body.items.find((r: { id: string }) => r.id === theirs.id)).toEqual(theirs);
    expect((await list(other)).body.items.map((r: { slug: string }) => r.slug)).not.toContain('Stolen');
  });

  it('may read the shared roles but not create, change or delete one: 403', async () => {
    const mine = await newTenant();
    const member = await builtIn('MEMBER');
    const shared = (await create({ slug: uniqueRole('Shared'), name: 'Shared' })).body;
    expect((await call('GET', '/v1/roles', undefined, mine)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/v1/roles', { slug: uniqueRole('Everyone'), name: 'Everyone' }],
      ['POST', '/v1/roles', { slug: uniqueRole('Everyone'), name: 'Everyone', tenant_id: null }],
      ['PATCH', `/v1/roles/${member.id}`, { permissions: ['members:manage'] }],
      ['DELETE', `/v1/roles/${shared.id}`],
    ] as [string, string, unknown?][]) {
      const res = await call(method, path, body, mine);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message, `${method} ${path}`).toContain('bound to tenants');
    }
    expect((await builtIn('MEMBER')).permissions).toEqual(member.permissions);
    expect((await list()).body.items.map((r: { id: string }) => r.id)).toContain(shared.id);
  });
});

describe('the shared roles (every tenant has them) change only with registry:admin; a tenant\'s own with members:write', () => {
  const token = async (scope: string) => ({ authorization: `Bearer ${await pair.issuer.sign({ aud: 'tenant-registry', azp: 'operator', scope })}` });
  const call = async (scope: string, method: string, path: string, body?: unknown) => pair.authenticated.request(method, path, body, await token(scope));
  const sharedChanges = async () => {
    const shared = (await create({ slug: uniqueRole('Shared'), name: 'Shared' })).body;
    return [
      ['POST', '/v1/roles', { slug: uniqueRole('Everyone'), name: 'Everyone' }, 201],
      ['POST', '/v1/roles', { slug: uniqueRole('Everyone'), name: 'Everyone', tenant_id: null }, 201],
      ['PATCH', `/v1/roles/${(await builtIn('MEMBER')).id}`, { description: `member ${randomUUID()}` }, 200],
      ['PATCH', `/v1/roles/${(await builtIn('IT_ADMIN')).id}`, { description: `admin ${randomUUID()}` }, 200],
      ['PATCH', `/v1/roles/${shared.id}`, { name: 'Renamed' }, 200],
      ['DELETE', `/v1/roles/${shared.id}`, undefined, 204],
    ] as [string, string, unknown, number][];
  };

  it('refuses members:write every creation, change and deletion of a shared role, built-in ones included: 403, nothing changed', async () => {
    const before = (await list()).body.items;
    for (const [method, path, body] of await sharedChanges()) {
      const res = await call('members:read members:write', method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body, `${method} ${path}`).toEqual({ error: 'forbidden', message: expect.stringContaining('registry:admin') });
    }
    const after = (await list()).body.items as { id: string; slug: string }[];
    for (const role of before) expect(after.find((r) => r.id === role.id)).toEqual(role);
    expect(after.filter((r) => r.slug.startsWith('Everyone'))).toEqual([]);
  });

  it('lets registry:admin create, change and delete a shared role', async () => {
    for (const [method, path, body, ok] of await sharedChanges()) expect((await call('registry:admin', method, path, body)).status, `${method} ${path}`).toBe(ok);
  });

  it("lets members:write create, change and delete a tenant's own role", async () => {
    const tenant = await newTenant();
    const created = await call('members:write', 'POST', '/v1/roles', { slug: uniqueRole('Own'), name: 'Own', tenant_id: tenant });
    expect(created.status).toBe(201);
    expect((await call('members:write', 'PATCH', `/v1/roles/${created.body.id}`, { permissions: ['audit:read'] })).status).toBe(200);
    expect((await call('members:write', 'DELETE', `/v1/roles/${created.body.id}`)).status).toBe(204);
  });
});

describe("a tenant's default role never gains members:manage (409)", () => {
  const setDefault = (tenantId: string, role: string) => pair.service.request('PATCH', `/v1/tenants/${tenantId}`, { settings: { default_role: role } });

  it("refuses members:manage to a tenant's own role that is its default_role, and to a shared one some tenant has as default: 409, unchanged", async () => {
    const tenant = await newTenant();
    const own = (await create({ slug: uniqueRole('Arrivals'), name: 'Arrivals', permissions: ['audit:read'], tenant_id: tenant })).body;
    const shared = (await create({ slug: uniqueRole('Everyone'), name: 'Everyone' })).body;
    expect((await setDefault(tenant, own.slug)).status).toBe(200);
    expect((await setDefault(await newTenant(), shared.slug)).status).toBe(200);
    for (const role of [own, shared]) {
      const res = await patch(role.id, { permissions: ['audit:read', 'members:manage'] });
      expect(res, role.slug).toMatchObject({ status: 409, body: { error: 'conflict', message: expect.stringContaining('default role') } });
    }
    expect((await list(tenant)).body.items.find((r: { id: string }) => r.id === own.id).permissions).toEqual(['audit:read']);
    expect((await list()).body.items.find((r: { id: string }) => r.id === shared.id).permissions).toEqual([]);
  });

  it("refuses members:manage to MEMBER, every tenant's default until it sets one: 409", async () => {
    const member = await builtIn('MEMBER');
    expect(await patch(member.id, { permissions: ['members:manage'] })).toMatchObject({ status: 409, body: { error: 'conflict' } });
    expect((await builtIn('MEMBER')).permissions).toEqual([]);
  });

  it('lets a role that is no default gain members:manage, and a default one change otherwise', async () => {
    const tenant = await newTenant();
    const deputy = (await create({ slug: uniqueRole('Deputy'), name: 'Deputy', tenant_id: tenant })).body;
    expect((await patch(deputy.id, { permissions: ['members:manage'] })).status).toBe(200);
    const arrivals = (await create({ slug: uniqueRole('Arrivals'), name: 'Arrivals', tenant_id: tenant })).body;
    expect((await setDefault(tenant, arrivals.slug)).status).toBe(200);
    expect((await patch(arrivals.id, { permissions: ['audit:read'], name: 'New arrivals' })).status).toBe(200);
  });
});
