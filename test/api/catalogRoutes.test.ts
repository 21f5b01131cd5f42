import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const DAY_MS = 86_400_000;

async function createTenant(kind = 'customer') {
  const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('cat'), name: 'Catalog tenant', kind });
  expect(res.status).toBe(201);
  return res.body.tenant as { id: string; slug: string };
}

const entitlements = async (tenantId: string) =>
  (await service.request('GET', `/v1/entitlements?tenant_id=${tenantId}`)).body.items as Record<string, any>[];

const trial = (body: unknown) => service.request('POST', '/v1/catalog/trial-request', body);

describe('GET /v1/catalog', () => {
  it('lists the catalog seeded by the migration, in order, with every CatalogEntry field', async () => {
    const res = await service.request('GET', '/v1/catalog');
    expect(res.status).toBe(200);
    expect(res.body.items.map((e: any) => e.key)).toEqual(['analytics', 'automation', 'data-export', 'sso', 'api-access']);
    expect(res.body.items[0]).toEqual({
      key: 'analytics',
      name: 'Analytics',
      description: 'Dashboards and reports over tenant usage data.',
      plans_required: ['starter', 'growth', 'enterprise'],
      demo_url: 'https://demo.example.com/analytics',
      supports_trial: true,
      client_ids: [],
      fail: 'open',
    });
  });

  it('omits demo_url when a product has none', async () => {
    const res = await service.request('GET', '/v1/catalog');
    const sso = res.body.items.find((e: any) => e.key === 'sso');
    expect(sso).toMatchObject({ supports_trial: false, plans_required: ['enterprise'] });
    expect('demo_url' in sso).toBe(false);
  });
});

describe('POST /v1/catalog/request', () => {
  it('answers 202 and records catalog.product_requested with metadata {product}', async () => {
    const tenant = await createTenant();
    const userAgent = `catalog-test/${randomUUID()}`;
    const res = await service.request('POST', '/v1/catalog/request', { tenant_id: tenant.id, product: 'sso' }, { 'user-agent': userAgent });
    expect(res.status).toBe(202);
    const audit = await service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=catalog.product_requested`);
    expect(audit.body.items).toHaveLength(1);
    expect(audit.body.items[0]).toMatchObject({ product: 'sso', metadata: { product: 'sso' }, user_agent: userAgent });
  });

  it('creates no entitlement', async () => {
    const tenant = await createTenant();
    expect((await service.request('POST', '/v1/catalog/request', { tenant_id: tenant.id, product: 'analytics' })).status).toBe(202);
    expect(await entitlements(tenant.id)).toEqual([]);
  });

  it('an unknown tenant answers 404 and records nothing', async () => {
    const tenantId = randomUUID();
    const res = await service.request('POST', '/v1/catalog/request', { tenant_id: tenantId, product: 'sso' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
    expect((await service.request('GET', `/v1/audit?tenant_id=${tenantId}`)).body.items).toEqual([]);
  });

  it('an unknown product answers 404 and records nothing', async () => {
    const tenant = await createTenant();
    const res = await service.request('POST', '/v1/catalog/request', { tenant_id: tenant.id, product: 'teleportation' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
    const audit = await service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=catalog.product_requested`);
    expect(audit.body.items).toEqual([]);
  });

  it.each([
    ['no product', (id: string) => ({ tenant_id: id })],
    ['no tenant_id', () => ({ product: 'sso' })],
    ['a malformed tenant_id', () => ({ tenant_id: 'x', product: 'sso' })],
    ['an empty product', (id: string) => ({ tenant_id: id, product: '' })],
    ['an unknown field', (id: string) => ({ tenant_id: id, product: 'sso', note: 'asap' })],
  ])('a request with %s answers 400', async (_label, body) => {
    const tenant = await createTenant();
    const res = await service.request('POST', '/v1/catalog/request', body(tenant.id));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('a request without a body answers 400', async () => {
    const res = await service.request('POST', '/v1/catalog/request');
    expect(res.status).toBe(400);
  });
});

describe('POST /v1/catalog/trial-request', () => {
  it('answers 201 with a TenantProduct that expires 14 days after it was created', async () => {
    const tenant = await createTenant();
    const res = await trial({ tenant_id: tenant.id, product: 'analytics' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tenant_id: tenant.id, product: 'analytics', enabled: true });
    expect(typeof res.body.config).toBe('object');
    expect((Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)) / DAY_MS).toBe(14);
    expect(Number.isNaN(Date.parse(res.body.updated_at))).toBe(false);
  });

  it('the trial appears in the tenant entitlements', async () => {
    const tenant = await createTenant();
    const res = await trial({ tenant_id: tenant.id, product: 'automation' });
    expect(res.status).toBe(201);
    expect(await entitlements(tenant.id)).toEqual([res.body]);
  });

  it('records entitlement.trial_started with the request user_agent', async () => {
    const tenant = await createTenant();
    const userAgent = `trial-test/${randomUUID()}`;
    expect((await service.request('POST', '/v1/catalog/trial-request', { tenant_id: tenant.id, product: 'analytics' }, { 'user-agent': userAgent })).status).toBe(201);
    const audit = await service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=entitlement.trial_started`);
    expect(audit.body.items).toHaveLength(1);
    expect(audit.body.items[0]).toMatchObject({ product: 'analytics', user_agent: userAgent });
  });

  it('a second trial of the same product answers 409 and leaves the first one', async () => {
    const tenant = await createTenant();
    const first = await trial({ tenant_id: tenant.id, product: 'analytics' });
    expect(first.status).toBe(201);
    const second = await trial({ tenant_id: tenant.id, product: 'analytics' });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('conflict');
    expect(await entitlements(tenant.id)).toEqual([first.body]);
  });

  it('concurrent trial requests of one product give exactly one 201', async () => {
    const tenant = await createTenant();
    const results = await Promise.all(Array.from({ length: 5 }, () => trial({ tenant_id: tenant.id, product: 'api-access' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('a product without a trial answers 400 and grants nothing', async () => {
    const tenant = await createTenant();
    const res = await trial({ tenant_id: tenant.id, product: 'sso' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
    expect(await entitlements(tenant.id)).toEqual([]);
  });

  it('a frozen tenant answers 409 and gets nothing', async () => {
    const tenant = await createTenant();
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/cancel`)).status).toBe(200);
    const res = await trial({ tenant_id: tenant.id, product: 'analytics' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('conflict');
    expect(await entitlements(tenant.id)).toEqual([]);
  });

  it('an unknown tenant answers 404', async () => {
    const res = await trial({ tenant_id: randomUUID(), product: 'analytics' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it('an unknown product answers 404', async () => {
    const tenant = await createTenant();
    const res = await trial({ tenant_id: tenant.id, product: 'teleportation' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it('missing fields answer 400', async () => {
    const tenant = await createTenant();
    expect((await trial({ tenant_id: tenant.id })).status).toBe(400);
    expect((await trial({ product: 'analytics' })).status).toBe(400);
    expect((await trial({ tenant_id: 'x', product: 'analytics' })).status).toBe(400);
  });
});
