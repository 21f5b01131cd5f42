import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServicePair, type ServicePair } from '../../support/servicePair.ts';

/** The service, and its twin with AUTH_ENABLED for the scopes and tenant bindings of tokens. */
let pair: ServicePair;
beforeAll(async () => {
  pair = await startServicePair();
});
afterAll(() => pair?.close());

/** A permission slug no other test of the run uses. */
const uniquePermission = (stem = 'perm') => `${stem}-${randomUUID().slice(0, 8)}:use`;
const create = (body: unknown) => pair.service.request('POST', '/v1/permissions', body);
const remove = (slug: string) => pair.service.request('DELETE', `/v1/permissions/${encodeURIComponent(slug)}`);
const eventsOf = (slug: string) =>
  pair.service.orm.em.fork().execute<{ action: string; metadata: unknown }[]>('select action, metadata from audit_events where target_type = ? and target_id = ? order by id', [
    'permission',
    slug,
  ]);

describe('GET /v1/permissions', () => {
  it('lists the built-in permissions among the others, by slug, as {slug, description, created_at}', async () => {
    const res = await pair.service.request('GET', '/v1/permissions');
    expect(res.status).toBe(200);
    const slugs = res.body.items.map((p: { slug: string }) => p.slug);
    expect(slugs).toEqual(expect.arrayContaining(['audit:read', 'directory:manage', 'members:manage', 'sso:manage']));
    expect(slugs).toEqual([...slugs].sort());
    expect(Object.keys(res.body.items[0]).sort()).toEqual(['created_at', 'description', 'slug']);
  });
});

describe('POST /v1/permissions', () => {
  it('defines a permission (201), which the listing then has, with permission.created', async () => {
    const slug = uniquePermission('reports');
    const res = await create({ slug, description: 'export reports' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ slug, description: 'export reports', created_at: expect.any(String) });
    const listed = (await pair.service.request('GET', '/v1/permissions')).body.items;
    expect(listed).toContainEqual(res.body);
    expect(await eventsOf(slug)).toEqual([{ action: 'permission.created', metadata: { description: 'export reports' } }]);
  });

  it('a slug that exists is 409, a built-in one included, and appends nothing', async () => {
    const slug = uniquePermission();
    expect((await create({ slug })).status).toBe(201);
    expect(await create({ slug, description: 'again' })).toMatchObject({ status: 409, body: { error: 'conflict' } });
    expect((await create({ slug: 'audit:read' })).status).toBe(409);
    expect(await eventsOf(slug)).toHaveLength(1);
  });

  it('takes slugs of the pattern up to 100 characters and refuses others with 400', async () => {
    const stem = `p${randomUUID().replaceAll('-', '')}`;
    for (const slug of [`${stem}:read`, `${stem}_x-y:items:*`, `${stem}:a:b_c-d`, `${stem}${'a'.repeat(100 - stem.length)}`]) {
      expect((await create({ slug })).status, slug).toBe(201);
    }
    for (const slug of ['Reports:read', '1reports', 'reports:', 'reports::read', ':read', 'reports:Read', 'rep orts', '', `${stem}${'b'.repeat(101 - stem.length)}`]) {
      expect(await create({ slug }), slug).toMatchObject({ status: 400, body: { error: 'invalid_input' } });
    }
    expect((await create({ slug: uniquePermission(), extra: true })).status).toBe(400);
  });
});

describe('DELETE /v1/permissions/{slug}', () => {
  it('deletes a permission no role grants (204), with permission.deleted; then it is 404', async () => {
    const slug = uniquePermission();
    await create({ slug, description: 'short-lived' });
    expect((await remove(slug)).status).toBe(204);
    expect((await pair.service.request('GET', '/v1/permissions')).body.items.map((p: { slug: string }) => p.slug)).not.toContain(slug);
    expect((await eventsOf(slug)).map((e) => e.action)).toEqual(['permission.created', 'permission.deleted']);
    expect(await remove(slug)).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });

  it('keeps a permission while a role grants it (409), and deletes it once no role does', async () => {
    const slug = uniquePermission();
    await create({ slug });
    const role = (await pair.service.request('POST', '/v1/roles', { slug: `R-${randomUUID()}`.slice(0, 40), name: 'Granting', permissions: [slug] })).body;
    expect(await remove(slug)).toMatchObject({ status: 409, body: { error: 'conflict', message: expect.stringContaining('1 role(s) grant') } });
    expect((await pair.service.request('PATCH', `/v1/roles/${role.id}`, { permissions: [] })).status).toBe(200);
    expect((await remove(slug)).status).toBe(204);
  });

  it('keeps the built-in permissions: 409', async () => {
    for (const slug of ['members:manage', 'sso:manage', 'directory:manage', 'audit:read']) {
      expect(await remove(slug), slug).toMatchObject({ status: 409, body: { message: expect.stringContaining('built-in') } });
    }
  });

  it('a slug outside the pattern is 400', async () => {
    expect((await remove('Not-A-Slug')).status).toBe(400);
  });

  it('racing a role that is given the permission, one of the two wins: never a role granting a deleted permission', async () => {
    for (let round = 0; round < 5; round += 1) {
      const slug = uniquePermission('race');
      await create({ slug });
      const [deleted, role] = await Promise.all([
        remove(slug),
        pair.service.request('POST', '/v1/roles', { slug: `Race-${randomUUID()}`.slice(0, 40), name: 'Racer', permissions: [slug] }),
      ]);
      expect(['204 400', '409 201']).toContain(`${deleted.status} ${role.status}`);
    }
  });
});

describe('a token bound to tenants (AUTH_ENABLED), whatever its scopes (registry:admin here)', () => {
  it("reads the permissions, but may not define or delete one: they are every tenant's (403)", async () => {
    const headers = { authorization: `Bearer ${await pair.issuer.sign({ aud: 'tenant-registry', azp: 'portal', scope: 'registry:admin', tenant_id: randomUUID() })}` };
    const slug = uniquePermission();
    await create({ slug });
    expect((await pair.authenticated.request('GET', '/v1/permissions', undefined, headers)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/v1/permissions', { slug: uniquePermission() }],
      ['DELETE', `/v1/permissions/${slug}`],
    ] as [string, string, unknown?][]) {
      const res = await pair.authenticated.request(method, path, body, headers);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message, `${method} ${path}`).toContain('bound to tenants');
    }
    expect((await pair.service.request('GET', '/v1/permissions')).body.items.map((p: { slug: string }) => p.slug)).toContain(slug);
  });
});

describe('the permissions catalog (every tenant\'s) changes only with registry:admin', () => {
  const token = async (scope: string) => ({ authorization: `Bearer ${await pair.issuer.sign({ aud: 'tenant-registry', azp: 'operator', scope })}` });

  it('refuses members:write a new permission and the deletion of one: 403 forbidden, nothing changed', async () => {
    const slug = uniquePermission('kept');
    expect((await create({ slug })).status).toBe(201);
    const operator = await token('members:read members:write');
    const added = await pair.authenticated.request('POST', '/v1/permissions', { slug: uniquePermission('refused') }, operator);
    expect(added.status).toBe(403);
    expect(added.body).toEqual({ error: 'forbidden', message: expect.stringContaining('registry:admin') });
    const removed = await pair.authenticated.request('DELETE', `/v1/permissions/${encodeURIComponent(slug)}`, undefined, operator);
    expect(removed).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    const slugs = (await pair.service.request('GET', '/v1/permissions')).body.items.map((p: { slug: string }) => p.slug);
    expect(slugs).toContain(slug);
    expect(slugs.filter((s: string) => s.startsWith('refused-'))).toEqual([]);
  });

  it('lets registry:admin define and delete a permission', async () => {
    const admin = await token('registry:admin');
    const slug = uniquePermission('admin');
    expect((await pair.authenticated.request('POST', '/v1/permissions', { slug }, admin)).status).toBe(201);
    expect((await pair.authenticated.request('DELETE', `/v1/permissions/${encodeURIComponent(slug)}`, undefined, admin)).status).toBe(204);
  });
});
