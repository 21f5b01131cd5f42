import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const DAY_MS = 86_400_000;

async function createTenant(body: Record<string, unknown> = {}, headers?: Record<string, string>) {
  const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('tn'), name: 'Tenant', ...body }, headers);
  expect(res.status).toBe(201);
  return res.body.tenant as Record<string, any>;
}

async function auditEvents(tenantId: string, action: string) {
  const res = await service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=${encodeURIComponent(action)}`);
  expect(res.status).toBe(200);
  return res.body.items as Record<string, any>[];
}

/** Sets a status the API offers no transition into (archived, demo), the way an operator's migration would. */
async function forceStatus(id: string, status: string) {
  await service.orm.em.fork().execute('update tenants set status = ? where id = ?', [status, id]);
}

/** A slug of exactly n characters that matches the pattern and no other test uses. */
const slugOfLength = (n: number) => {
  const random = randomUUID().replace(/-/g, '');
  return n <= 32 ? random.slice(0, n) : (uniqueSlug('len').replace(/-/g, 'a') + random).slice(0, n);
};

describe('POST /v1/tenants', () => {
  it('creates a customer tenant in trial for 14 days with plan starter by default', async () => {
    const slug = uniqueSlug('acme');
    const res = await service.request('POST', '/v1/tenants', { slug, name: 'Acme' });
    expect(res.status).toBe(201);
    expect(res.body.tenant).toMatchObject({ slug, name: 'Acme', kind: 'customer', status: 'trial', plan: 'starter' });
    const days = (Date.parse(res.body.tenant.trial_ends_at) - Date.parse(res.body.tenant.created_at)) / DAY_MS;
    expect(days).toBe(14);
    expect(res.body.invite_url).toBeUndefined();
  });

  it('creates a demo tenant in status demo with no trial_ends_at', async () => {
    const tenant = await createTenant({ kind: 'demo' });
    expect(tenant).toMatchObject({ kind: 'demo', status: 'demo', plan: 'starter' });
    expect(tenant.trial_ends_at ?? null).toBeNull();
  });

  it('keeps the given plan and sales_owner and answers a full Tenant', async () => {
    const tenant = await createTenant({ plan: 'enterprise', sales_owner: 'jane@sales.example' });
    expect(tenant).toMatchObject({ plan: 'enterprise', sales_owner: 'jane@sales.example' });
    expect(tenant.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(Number.isNaN(Date.parse(tenant.created_at))).toBe(false);
    expect(Number.isNaN(Date.parse(tenant.updated_at))).toBe(false);
  });

  it('accepts slugs of 3 and 40 characters, the bounds of the pattern', async () => {
    for (const length of [3, 40]) {
      const slug = slugOfLength(length);
      expect(slug).toHaveLength(length);
      const res = await service.request('POST', '/v1/tenants', { slug, name: 'Bound' });
      expect(res.status).toBe(201);
      expect(res.body.tenant.slug).toBe(slug);
    }
  });

  it.each([
    ['2 characters', 'ab'],
    ['41 characters', 'a'.repeat(41)],
    ['uppercase letters', 'Acme-corp'],
    ['a leading hyphen', '-acme-corp'],
    ['a trailing hyphen', 'acme-corp-'],
    ['an underscore', 'acme_corp'],
    ['a non-string value', 12345],
  ])('rejects a slug with %s with 400 invalid_input', async (_label, slug) => {
    const res = await service.request('POST', '/v1/tenants', { slug, name: 'Bad slug' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('rejects an empty name with 400', async () => {
    const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('nm'), name: '' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('accepts a name of 255 characters and rejects one of 256 with 400', async () => {
    const ok = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('nm'), name: 'n'.repeat(255) });
    expect(ok.status).toBe(201);
    const tooLong = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('nm'), name: 'n'.repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe('invalid_input');
  });

  it('rejects a missing name or slug with 400', async () => {
    expect((await service.request('POST', '/v1/tenants', { slug: uniqueSlug('nm') })).status).toBe(400);
    expect((await service.request('POST', '/v1/tenants', { name: 'No slug' })).status).toBe(400);
  });

  it('rejects an admin_email that is not an e-mail address with 400', async () => {
    const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('em'), name: 'E', admin_email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('rejects an unknown kind with 400', async () => {
    const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('kd'), name: 'K', kind: 'partner' });
    expect(res.status).toBe(400);
  });

  it('rejects unknown fields with 400 and creates nothing', async () => {
    const slug = uniqueSlug('uf');
    const res = await service.request('POST', '/v1/tenants', { slug, name: 'U', status: 'active' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
    expect((await service.request('GET', `/v1/tenants/by-slug/${slug}`)).status).toBe(404);
  });

  it('a taken slug answers 409 with the Error body', async () => {
    const slug = uniqueSlug('dup');
    expect((await service.request('POST', '/v1/tenants', { slug, name: 'First' })).status).toBe(201);
    const res = await service.request('POST', '/v1/tenants', { slug, name: 'Second' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('conflict');
    expect(typeof res.body.message).toBe('string');
  });

  it('10 concurrent creates of one slug give exactly one 201 and nine 409', async () => {
    const slug = uniqueSlug('race');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => service.request('POST', '/v1/tenants', { slug, name: `Racer ${i}` })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const winner = results.find((r) => r.status === 201)!;
    expect((await auditEvents(winner.body.tenant.id, 'tenant.created')).length).toBe(1);
  });

  it('appends tenant.created with the source_ip and user_agent of the request', async () => {
    const userAgent = `tenant-test/${randomUUID()}`;
    const tenant = await createTenant({ kind: 'demo' }, { 'user-agent': userAgent });
    const events = await auditEvents(tenant.id, 'tenant.created');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'tenant.created', tenant_id: tenant.id, user_agent: userAgent });
    expect(events[0]!.source_ip).toMatch(/127\.0\.0\.1|::1/);
  });

  it("keeps the admin's e-mail out of the append-only log: tenant.created only says an admin was invited", async () => {
    const email = `admin-${randomUUID()}@example.com`;
    const tenant = await createTenant({ admin_email: email });
    const [event] = await auditEvents(tenant.id, 'tenant.created');
    expect(event!.metadata).toMatchObject({ admin_invited: true });
    expect(JSON.stringify(event)).not.toContain(email);
  });
});

describe('GET /v1/tenants/{id} and /v1/tenants/by-slug/{slug}', () => {
  it('returns the tenant by id', async () => {
    const tenant = await createTenant();
    const res = await service.request('GET', `/v1/tenants/${tenant.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(tenant);
  });

  it('returns the tenant by slug', async () => {
    const tenant = await createTenant();
    const res = await service.request('GET', `/v1/tenants/by-slug/${tenant.slug}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(tenant);
  });

  it('an unknown id answers 404 with the Error body', async () => {
    const res = await service.request('GET', `/v1/tenants/${randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it('an unknown slug answers 404 with the Error body', async () => {
    const res = await service.request('GET', `/v1/tenants/by-slug/${uniqueSlug('nobody')}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it.each(['not-a-uuid', '123', `${randomUUID()}x`, "1'; drop table tenants; --"])(
    'a malformed id %j answers 400, never 500',
    async (id) => {
      const res = await service.request('GET', `/v1/tenants/${encodeURIComponent(id)}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_input');
    },
  );

  it('a slug that does not match the pattern answers 400', async () => {
    const res = await service.request('GET', '/v1/tenants/by-slug/Not_A_Slug');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });
});

describe('POST /v1/tenants/{id}/activate', () => {
  it.each([
    ['trial', { kind: 'customer' }, undefined],
    ['demo', { kind: 'demo' }, undefined],
    ['frozen', { kind: 'customer' }, 'cancel'],
    ['archived', { kind: 'customer' }, 'archive'],
  ] as const)('moves a tenant from %s to active and applies plan, contract and erp fields', async (from, create, prepare) => {
    const tenant = await createTenant(create);
    if (prepare === 'cancel') expect((await service.request('POST', `/v1/tenants/${tenant.id}/cancel`)).status).toBe(200);
    if (prepare === 'archive') await forceStatus(tenant.id, 'archived');
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body.status).toBe(from);

    const body = { plan: 'growth', contract_start: '2026-01-01', contract_end: '2026-12-31', erp_customer_id: `ERP-${from}` };
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/activate`, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: tenant.id, status: 'active', ...body });
    // The change is stored, not only echoed.
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body).toMatchObject({ status: 'active', ...body });
  });

  it('activates without a body and keeps the existing fields', async () => {
    const tenant = await createTenant({ plan: 'growth' });
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/activate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', plan: 'growth', slug: tenant.slug });
  });

  it.each([
    ['contract_start', { contract_start: '2026-02-30' }],
    ['contract_start', { contract_start: 'next monday' }],
    ['contract_end', { contract_end: '2026-13-01' }],
    ['contract_start', { contract_start: '2026-01-01T00:00:00Z' }],
  ])('an invalid %s date answers 400 %j', async (_field, body) => {
    const tenant = await createTenant();
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/activate`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body.status).toBe('trial');
  });

  it('contract_end before contract_start answers 400 and changes nothing', async () => {
    const tenant = await createTenant();
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/activate`, {
      contract_start: '2026-06-01',
      contract_end: '2026-05-31',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body.status).toBe('trial');
  });

  it('contract_end before the stored contract_start answers 400', async () => {
    const tenant = await createTenant();
    const first = await service.request('POST', `/v1/tenants/${tenant.id}/activate`, { contract_start: '2026-06-01' });
    expect(first.status).toBe(200);
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/activate`, { contract_end: '2026-01-31' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body.contract_end ?? null).toBeNull();
  });

  it('rejects unknown fields in the activate body with 400', async () => {
    const tenant = await createTenant();
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/activate`, { status: 'frozen' });
    expect(res.status).toBe(400);
  });

  it('an unknown id answers 404', async () => {
    const res = await service.request('POST', `/v1/tenants/${randomUUID()}/activate`, { plan: 'growth' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it('a malformed id answers 400', async () => {
    const res = await service.request('POST', '/v1/tenants/nope/activate');
    expect(res.status).toBe(400);
  });

  it('appends tenant.activated with the request source_ip and user_agent and the applied fields', async () => {
    const tenant = await createTenant();
    const userAgent = `activate-test/${randomUUID()}`;
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/activate`, { plan: 'enterprise' }, { 'user-agent': userAgent });
    expect(res.status).toBe(200);
    const events = await auditEvents(tenant.id, 'tenant.activated');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_agent: userAgent, metadata: { from: 'trial', to: 'active', plan: 'enterprise' } });
    expect(events[0]!.source_ip).toMatch(/127\.0\.0\.1|::1/);
  });

  it("keeps the admin's e-mail out of the append-only log: tenant.created only says an admin was invited", async () => {
    const email = `admin-${randomUUID()}@example.com`;
    const tenant = await createTenant({ admin_email: email });
    const [event] = await auditEvents(tenant.id, 'tenant.created');
    expect(event!.metadata).toMatchObject({ admin_invited: true });
    expect(JSON.stringify(event)).not.toContain(email);
  });
});

describe('POST /v1/tenants/{id}/cancel', () => {
  it('freezes the tenant at once and returns it', async () => {
    const tenant = await createTenant();
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/cancel`, { reason: 'budget', at_period_end: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: tenant.id, status: 'frozen' });
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body.status).toBe('frozen');
  });

  it('works without a body', async () => {
    const tenant = await createTenant({ kind: 'demo' });
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('frozen');
  });

  it('freezes an active tenant', async () => {
    const tenant = await createTenant();
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/activate`)).status).toBe(200);
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/cancel`, {});
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('frozen');
  });

  it('records reason and at_period_end in the tenant.cancelled event with source_ip and user_agent', async () => {
    const tenant = await createTenant();
    const userAgent = `cancel-test/${randomUUID()}`;
    const res = await service.request(
      'POST',
      `/v1/tenants/${tenant.id}/cancel`,
      { reason: 'moved to a competitor', at_period_end: true },
      { 'user-agent': userAgent },
    );
    expect(res.status).toBe(200);
    const events = await auditEvents(tenant.id, 'tenant.cancelled');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      tenant_id: tenant.id,
      user_agent: userAgent,
      metadata: { reason: 'moved to a competitor', at_period_end: true, from: 'trial', to: 'frozen' },
    });
    expect(events[0]!.source_ip).toMatch(/127\.0\.0\.1|::1/);
  });

  it('rejects an at_period_end that is not a boolean with 400', async () => {
    const tenant = await createTenant();
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/cancel`, { at_period_end: 'yes' });
    expect(res.status).toBe(400);
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body.status).toBe('trial');
  });

  it('an unknown id answers 404', async () => {
    const res = await service.request('POST', `/v1/tenants/${randomUUID()}/cancel`, { reason: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });
});
