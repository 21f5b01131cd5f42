import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

/** What settings.sign_in says until a tenant sets it (SPEC-EXTENSIONS §15). */
const NO_SIGN_IN_POLICY = { require_sso: false, mfa: 'off' };

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

async function createTenant(kind = 'customer') {
  const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('upd'), name: 'Before', kind, plan: 'starter' });
  return res.body.tenant as { id: string; slug: string; trial_ends_at: string | null };
}
const patch = (id: string, body: unknown) => service.request('PATCH', `/v1/tenants/${id}`, body);
const events = async (id: string, action: string) => (await service.request('GET', `/v1/audit?tenant_id=${id}&action=${action}`)).body.items;
const claims = async (id: string) => (await service.request('POST', '/v1/internal/idp/claims', { tenant_id: id })).body;

describe('PATCH /v1/tenants/{id}', () => {
  it('changes the given fields and records each change with its old and new value', async () => {
    const tenant = await createTenant();
    const res = await patch(tenant.id, { name: 'After', sales_owner: 'sam@example.com', erp_customer_id: 'ERP-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'After', sales_owner: 'sam@example.com', erp_customer_id: 'ERP-1' });
    const [event] = await events(tenant.id, 'tenant.updated');
    expect(event.metadata.changes).toEqual({
      name: { old: 'Before', new: 'After' },
      sales_owner: { old: null, new: 'sam@example.com' },
      erp_customer_id: { old: null, new: 'ERP-1' },
    });
  });

  it('a new plan shows in the claims at once; null clears an optional field', async () => {
    const tenant = await createTenant();
    expect((await claims(tenant.id)).plan).toBe('starter');
    await patch(tenant.id, { plan: 'enterprise', sales_owner: 'x' });
    expect((await claims(tenant.id)).plan).toBe('enterprise');
    const cleared = await patch(tenant.id, { sales_owner: null });
    expect(cleared.body.sales_owner).toBeUndefined();
  });

  it('extends a trial: trial_ends_at moves while in trial', async () => {
    const tenant = await createTenant();
    const later = new Date(Date.parse(tenant.trial_ends_at!) + 7 * 24 * 3600_000).toISOString();
    const res = await patch(tenant.id, { trial_ends_at: later });
    expect(res.status).toBe(200);
    expect(res.body.trial_ends_at).toBe(later);
    expect((await events(tenant.id, 'tenant.updated'))[0].metadata.changes.trial_ends_at).toEqual({ old: tenant.trial_ends_at, new: later });
  });

  it('trial_ends_at of a tenant not in trial is 409, and one in the past is 400', async () => {
    const demo = await createTenant('demo');
    expect((await patch(demo.id, { trial_ends_at: new Date(Date.now() + 86_400_000).toISOString() })).status).toBe(409);
    const trial = await createTenant();
    expect((await patch(trial.id, { trial_ends_at: new Date(Date.now() - 1000).toISOString() })).status).toBe(400);
  });

  it('concurrent PATCHes of one tenant each record the before-state the one before it left: no change decided on a stale read', async () => {
    const tenant = await createTenant();
    const owners = Array.from({ length: 16 }, (_, i) => `owner-${i}@example.com`);
    const answers = await Promise.all(owners.map((owner) => patch(tenant.id, { sales_owner: owner })));
    expect(answers.map((a) => a.status)).toEqual(owners.map(() => 200));
    const changes = ((await events(tenant.id, 'tenant.updated')) as { metadata: { changes: { sales_owner: { old: string | null; new: string } } } }[])
      .map((e) => e.metadata.changes.sales_owner)
      .reverse();
    expect(changes).toHaveLength(owners.length);
    expect(changes[0]!.old).toBeNull();
    changes.slice(1).forEach((change, i) => expect(change.old).toBe(changes[i]!.new));
    expect(new Set(changes.map((c) => c.new))).toEqual(new Set(owners));
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body.sales_owner).toBe(changes.at(-1)!.new);
  });

  it('a PATCH that changes nothing answers the tenant and records nothing', async () => {
    const tenant = await createTenant();
    expect((await patch(tenant.id, { name: 'Before' })).status).toBe(200);
    expect(await events(tenant.id, 'tenant.updated')).toHaveLength(0);
  });

  it('unknown fields, the slug and bad values answer 400; an unknown tenant 404', async () => {
    const tenant = await createTenant();
    for (const body of [{ slug: 'new-slug' }, { status: 'active' }, { name: '' }, { plan: 7 }]) {
      expect((await patch(tenant.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await patch('00000000-0000-4000-8000-000000000000', { name: 'x' })).status).toBe(404);
  });
});

describe('POST /v1/tenants/{id}/archive', () => {
  it('archives with tenant.archived, its keys stop verifying (TENANT_INACTIVE) and its claims say archived', async () => {
    const tenant = await createTenant();
    const key = (await service.request('POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'k' })).body.plaintext;
    expect((await service.request('POST', '/v1/internal/api-keys/verify', { key })).body.code).toBe('VALID');
    const res = await service.request('POST', `/v1/tenants/${tenant.id}/archive`, { reason: 'contract ended' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('archived');
    expect((await events(tenant.id, 'tenant.archived'))[0].metadata).toEqual({ from: 'trial', to: 'archived', reason: 'contract ended' });
    expect((await service.request('POST', '/v1/internal/api-keys/verify', { key })).body).toEqual({ valid: false, code: 'TENANT_INACTIVE' });
    expect((await claims(tenant.id)).tenant_status).toBe('archived');
  });

  it('archiving an archived tenant is 409; an unknown one 404', async () => {
    const tenant = await createTenant();
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/archive`)).status).toBe(200);
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/archive`)).status).toBe(409);
    expect((await service.request('POST', '/v1/tenants/00000000-0000-4000-8000-000000000000/archive')).status).toBe(404);
  });
});

describe('PATCH /v1/tenants/{id} settings', () => {
  it('are MEMBER and 7 days until set; a PATCH sets the ones it gives (tenant.updated with old and new), the others stay', async () => {
    const tenant = await createTenant();
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body.settings).toEqual({ default_role: 'MEMBER', invitation_expiry_days: 7, sign_in: NO_SIGN_IN_POLICY });
    expect((await service.request('POST', '/v1/roles', { slug: 'Helpdesk', name: 'Helpdesk', permissions: ['audit:read'], tenant_id: tenant.id })).status).toBe(201);
    const res = await patch(tenant.id, { settings: { default_role: 'Helpdesk' } });
    expect(res).toMatchObject({ status: 200, body: { settings: { default_role: 'Helpdesk', invitation_expiry_days: 7 } } });
    expect((await patch(tenant.id, { settings: { invitation_expiry_days: 14 } })).body.settings).toEqual({ default_role: 'Helpdesk', invitation_expiry_days: 14, sign_in: NO_SIGN_IN_POLICY });
    const changes = (await events(tenant.id, 'tenant.updated')).map((e: { metadata: { changes: unknown } }) => e.metadata.changes).reverse();
    expect(changes).toEqual([
      { settings: { old: { default_role: 'MEMBER', invitation_expiry_days: 7, sign_in: NO_SIGN_IN_POLICY }, new: { default_role: 'Helpdesk', invitation_expiry_days: 7, sign_in: NO_SIGN_IN_POLICY } } },
      { settings: { old: { default_role: 'Helpdesk', invitation_expiry_days: 7, sign_in: NO_SIGN_IN_POLICY }, new: { default_role: 'Helpdesk', invitation_expiry_days: 14, sign_in: NO_SIGN_IN_POLICY } } },
    ]);
    // The same again changes nothing and records nothing.
    await patch(tenant.id, { settings: { invitation_expiry_days: 14 } });
    expect(await events(tenant.id, 'tenant.updated')).toHaveLength(2);
  });

  it('take audit_retention_days from 30 to 3650 days, shown once set; null unsets it (kept forever); others are 400', async () => {
    const tenant = await createTenant('demo');
    for (const days of [29, 3651, 45.5, '30']) expect((await patch(tenant.id, { settings: { audit_retention_days: days } })).status, String(days)).toBe(400);
    expect((await patch(tenant.id, { settings: { audit_retention_days: 30 } })).body.settings).toEqual({ default_role: 'MEMBER', invitation_expiry_days: 7, sign_in: NO_SIGN_IN_POLICY, audit_retention_days: 30 });
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body.settings.audit_retention_days).toBe(30);
    expect((await patch(tenant.id, { settings: { audit_retention_days: 3650 } })).body.settings.audit_retention_days).toBe(3650);
    expect((await patch(tenant.id, { settings: { audit_retention_days: null } })).body.settings).toEqual({ default_role: 'MEMBER', invitation_expiry_days: 7, sign_in: NO_SIGN_IN_POLICY });
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body.settings).toEqual({ default_role: 'MEMBER', invitation_expiry_days: 7, sign_in: NO_SIGN_IN_POLICY });
  });

  it("take a role the tenant has, its own or a shared one: another is 400; days outside 1–30 are 400", async () => {
    const tenant = await createTenant();
    const own = await service.request('POST', '/v1/roles', { slug: 'Billing', name: 'Billing', tenant_id: tenant.id });
    expect(own.status).toBe(201);
    expect((await patch(tenant.id, { settings: { default_role: 'Billing' } })).body.settings.default_role).toBe('Billing');
    expect(await patch(tenant.id, { settings: { default_role: 'NoSuchRole' } })).toMatchObject({ status: 400, body: { message: expect.stringContaining('NoSuchRole') } });
    for (const days of [0, 31, 1.5]) expect((await patch(tenant.id, { settings: { invitation_expiry_days: days } })).status, String(days)).toBe(400);
    expect((await patch(tenant.id, { settings: { unknown: 1 } })).status).toBe(400);
  });

  it('refuses a default role holding members:manage (IT_ADMIN, or a role of its own): 400 invalid input, nothing changed', async () => {
    const tenant = await createTenant();
    expect((await service.request('POST', '/v1/roles', { slug: 'Deputy', name: 'Deputy', permissions: ['members:manage'], tenant_id: tenant.id })).status).toBe(201);
    for (const role of ['IT_ADMIN', 'Deputy']) {
      const res = await patch(tenant.id, { settings: { default_role: role, invitation_expiry_days: 3 }, name: 'Not renamed' });
      expect(res, role).toMatchObject({ status: 400, body: { error: 'invalid_input', message: expect.stringContaining('members:manage') } });
    }
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`)).body).toMatchObject({ name: 'Before', settings: { default_role: 'MEMBER', invitation_expiry_days: 7 } });
    expect(await events(tenant.id, 'tenant.updated')).toEqual([]);
  });
});

