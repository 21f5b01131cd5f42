import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

async function createTenant() {
  return (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('ent'), name: 'Entitled' })).body.tenant as { id: string };
}
const put = (id: string, product: string, body?: unknown) => service.request('PUT', `/v1/tenants/${id}/entitlements/${product}`, body);
const events = async (id: string, action: string) => (await service.request('GET', `/v1/audit?tenant_id=${id}&action=${action}`)).body.items;
const products = async (id: string) => (await service.request('POST', '/v1/internal/idp/claims', { tenant_id: id })).body.products;

describe('PUT /v1/tenants/{id}/entitlements/{product}', () => {
  it('grants a product (201, entitlement.granted) that shows in the claims at once', async () => {
    const tenant = await createTenant();
    expect(await products(tenant.id)).toEqual([]);
    const res = await put(tenant.id, 'analytics');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tenant_id: tenant.id, product: 'analytics', enabled: true, config: {}, expires_at: null });
    expect(await products(tenant.id)).toEqual(['analytics']);
    expect((await events(tenant.id, 'entitlement.granted'))[0]).toMatchObject({ product: 'analytics', metadata: { old: null, new: { enabled: true } } });
  });

  it('changes an entitlement (200, entitlement.updated with old and new); disabled leaves the claims', async () => {
    const tenant = await createTenant();
    await put(tenant.id, 'sso', { config: { seats: 10 } });
    const res = await put(tenant.id, 'sso', { enabled: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enabled: false, config: { seats: 10 } });
    expect(await products(tenant.id)).toEqual([]);
    const [event] = await events(tenant.id, 'entitlement.updated');
    expect(event.metadata).toMatchObject({ old: { enabled: true }, new: { enabled: false, config: { seats: 10 } } });
  });

  it('an expires_at in the past makes the product not current; null removes the expiry', async () => {
    const tenant = await createTenant();
    await put(tenant.id, 'automation', { expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(await products(tenant.id)).toEqual([]);
    await put(tenant.id, 'automation', { expires_at: null });
    expect(await products(tenant.id)).toEqual(['automation']);
  });

  it('an unchanged PUT answers 200 and records nothing', async () => {
    const tenant = await createTenant();
    await put(tenant.id, 'analytics');
    expect((await put(tenant.id, 'analytics')).status).toBe(200);
    expect(await events(tenant.id, 'entitlement.updated')).toHaveLength(0);
  });

  it('a product not in the catalog or an unknown tenant is 404; a bad body 400', async () => {
    const tenant = await createTenant();
    expect((await put(tenant.id, 'no-such-product')).status).toBe(404);
    expect((await put('00000000-0000-4000-8000-000000000000', 'analytics')).status).toBe(404);
    expect((await put(tenant.id, 'analytics', { enabled: 'yes' })).status).toBe(400);
    expect((await put(tenant.id, 'analytics', { unknown: 1 })).status).toBe(400);
  });
});

describe('DELETE /v1/tenants/{id}/entitlements/{product}', () => {
  it('removes the entitlement (204, entitlement.revoked) and the product from the claims', async () => {
    const tenant = await createTenant();
    await put(tenant.id, 'analytics');
    const res = await service.request('DELETE', `/v1/tenants/${tenant.id}/entitlements/analytics`);
    expect(res.status).toBe(204);
    expect(await products(tenant.id)).toEqual([]);
    expect((await service.request('GET', `/v1/entitlements?tenant_id=${tenant.id}`)).body.items).toEqual([]);
    expect((await events(tenant.id, 'entitlement.revoked'))[0]).toMatchObject({ product: 'analytics', metadata: { old: { enabled: true } } });
  });

  it('an entitlement the tenant does not have is 404', async () => {
    const tenant = await createTenant();
    expect((await service.request('DELETE', `/v1/tenants/${tenant.id}/entitlements/analytics`)).status).toBe(404);
  });
});
