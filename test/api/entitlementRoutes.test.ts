import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

async function createTenant() {
  const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('ent'), name: 'Entitled' });
  expect(res.status).toBe(201);
  return res.body.tenant as { id: string };
}

describe('GET /v1/entitlements', () => {
  it('a new tenant has no entitlements', async () => {
    const tenant = await createTenant();
    const res = await service.request('GET', `/v1/entitlements?tenant_id=${tenant.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [] });
  });

  it('lists every entitlement of the tenant, including disabled and expired ones, sorted by product', async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const em = service.orm.em.fork();
    const insert = `insert into tenant_products (tenant_id, product, enabled, config, expires_at, created_at, updated_at)
                    values (?, ?, ?, ?, ?, now(), now())`;
    await em.execute(insert, [tenant.id, 'sso', false, JSON.stringify({ idp: 'saml' }), null]);
    await em.execute(insert, [tenant.id, 'analytics', true, '{}', new Date(Date.now() - 86_400_000)]);
    await em.execute(insert, [other.id, 'automation', true, '{}', null]);
    const res = await service.request('GET', `/v1/entitlements?tenant_id=${tenant.id}`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((e: any) => [e.product, e.enabled])).toEqual([
      ['analytics', true],
      ['sso', false],
    ]);
    expect(res.body.items[1]).toMatchObject({ tenant_id: tenant.id, config: { idp: 'saml' }, expires_at: null });
  });

  it('a missing tenant_id answers 400', async () => {
    const res = await service.request('GET', '/v1/entitlements');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('a malformed tenant_id answers 400', async () => {
    const res = await service.request('GET', '/v1/entitlements?tenant_id=abc');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('an unknown tenant answers 404', async () => {
    const res = await service.request('GET', `/v1/entitlements?tenant_id=${randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });
});
