import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

type Tenant = { id: string; slug: string; plan: string; status: string };

async function createTenant(body: Record<string, unknown> = {}): Promise<Tenant> {
  const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('clm'), name: 'Claims', ...body });
  expect(res.status).toBe(201);
  return res.body.tenant;
}

const claims = (body: unknown) => service.request('POST', '/v1/internal/idp/claims', body);

/** Four tenants, one per lookup key, so the answer shows which key won. */
async function fourTenants() {
  const [byId, bySlug, byAttrId, byAttrSlug] = await Promise.all([createTenant(), createTenant(), createTenant(), createTenant()]);
  return { byId: byId!, bySlug: bySlug!, byAttrId: byAttrId!, byAttrSlug: byAttrSlug! };
}

async function entitle(tenantId: string, product: string, enabled: boolean, expiresAt: Date | null) {
  await service.orm.em
    .fork()
    .execute(
      `insert into tenant_products (tenant_id, product, enabled, config, expires_at, created_at, updated_at)
       values (?, ?, ?, '{}', ?, now(), now())`,
      [tenantId, product, enabled, expiresAt],
    );
}

describe('POST /v1/internal/idp/claims lookup order', () => {
  it('body.tenant_id beats tenant_slug, user_attrs.tenant_id and user_attrs.tenant_slug', async () => {
    const t = await fourTenants();
    const res = await claims({
      tenant_id: t.byId.id,
      tenant_slug: t.bySlug.slug,
      user_attrs: { tenant_id: t.byAttrId.id, tenant_slug: t.byAttrSlug.slug },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant_id: t.byId.id, tenant_slug: t.byId.slug });
  });

  it('body.tenant_slug beats user_attrs.tenant_id and user_attrs.tenant_slug', async () => {
    const t = await fourTenants();
    const res = await claims({ tenant_slug: t.bySlug.slug, user_attrs: { tenant_id: t.byAttrId.id, tenant_slug: t.byAttrSlug.slug } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant_id: t.bySlug.id, tenant_slug: t.bySlug.slug });
  });

  it('user_attrs.tenant_id beats user_attrs.tenant_slug', async () => {
    const t = await fourTenants();
    const res = await claims({ user_attrs: { tenant_id: t.byAttrId.id, tenant_slug: t.byAttrSlug.slug } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant_id: t.byAttrId.id, tenant_slug: t.byAttrId.slug });
  });

  it('user_attrs.tenant_slug alone resolves its tenant', async () => {
    const t = await fourTenants();
    const res = await claims({ user_attrs: { tenant_slug: t.byAttrSlug.slug } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant_id: t.byAttrSlug.id, tenant_slug: t.byAttrSlug.slug });
  });

  it('the first key present decides even when it finds nothing: an unknown body.tenant_id is 404, not a fall-through', async () => {
    const t = await fourTenants();
    const res = await claims({ tenant_id: randomUUID(), tenant_slug: t.bySlug.slug });
    expect(res.status).toBe(404);
  });
});

describe('POST /v1/internal/idp/claims answers', () => {
  it('an unknown tenant answers 404 with the Error body', async () => {
    for (const body of [
      { tenant_id: randomUUID() },
      { tenant_slug: uniqueSlug('none') },
      { user_attrs: { tenant_id: randomUUID() } },
      { user_attrs: { tenant_slug: uniqueSlug('none') } },
    ]) {
      const res = await claims(body);
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
  });

  it('no lookup key answers 400', async () => {
    for (const body of [{}, { user_attrs: {} }, { user_attrs: { org_roles: 'IT_ADMIN' } }]) {
      const res = await claims(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('invalid_input');
    }
  });

  it('an invalid body.tenant_id answers 400 even when a valid slug follows', async () => {
    const tenant = await createTenant();
    const res = await claims({ tenant_id: 'not-a-uuid', tenant_slug: tenant.slug });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('an invalid user_attrs.tenant_id answers 400 even when a valid user_attrs.tenant_slug follows', async () => {
    const tenant = await createTenant();
    const res = await claims({ user_attrs: { tenant_id: 'not-a-uuid', tenant_slug: tenant.slug } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('an invalid tenant_slug answers 400', async () => {
    expect((await claims({ tenant_slug: 'Bad Slug' })).status).toBe(400);
    expect((await claims({ user_attrs: { tenant_slug: 'Bad Slug' } })).status).toBe(400);
  });

  it('user_attrs values that are not strings answer 400', async () => {
    const res = await claims({ user_attrs: { tenant_id: 42 } });
    expect(res.status).toBe(400);
  });

  it('returns the full claim bundle with org_roles from the user attributes', async () => {
    const tenant = await createTenant({ plan: 'growth' });
    const res = await claims({ tenant_id: tenant.id, user_attrs: { org_roles: 'IT_ADMIN,BILLING' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tenant_id: tenant.id,
      tenant_slug: tenant.slug,
      org_roles: ['IT_ADMIN', 'BILLING'],
      products: [],
      plan: 'growth',
      tenant_status: 'trial',
    });
  });

  it('products contain only enabled, unexpired entitlements', async () => {
    const tenant = await createTenant();
    const day = 86_400_000;
    await entitle(tenant.id, 'analytics', true, null);
    await entitle(tenant.id, 'automation', true, new Date(Date.now() + day));
    await entitle(tenant.id, 'data-export', false, null);
    await entitle(tenant.id, 'sso', true, new Date(Date.now() - day));
    await entitle(tenant.id, 'api-access', false, new Date(Date.now() + day));
    const res = await claims({ tenant_id: tenant.id });
    expect(res.status).toBe(200);
    expect([...res.body.products].sort()).toEqual(['analytics', 'automation']);
  });

  it('a started trial appears in products', async () => {
    const tenant = await createTenant();
    const trial = await service.request('POST', '/v1/catalog/trial-request', { tenant_id: tenant.id, product: 'analytics' });
    expect(trial.status).toBe(201);
    expect((await claims({ tenant_slug: tenant.slug })).body.products).toEqual(['analytics']);
  });

  it('plan and tenant_status are the current ones after activate and cancel', async () => {
    const tenant = await createTenant();
    expect((await claims({ tenant_id: tenant.id })).body).toMatchObject({ plan: 'starter', tenant_status: 'trial' });
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/activate`, { plan: 'enterprise' })).status).toBe(200);
    expect((await claims({ tenant_id: tenant.id })).body).toMatchObject({ plan: 'enterprise', tenant_status: 'active' });
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/cancel`)).status).toBe(200);
    expect((await claims({ tenant_slug: tenant.slug })).body).toMatchObject({ plan: 'enterprise', tenant_status: 'frozen' });
  });

  it('a demo tenant reports tenant_status demo', async () => {
    const tenant = await createTenant({ kind: 'demo' });
    expect((await claims({ user_attrs: { tenant_id: tenant.id } })).body.tenant_status).toBe('demo');
  });
});
