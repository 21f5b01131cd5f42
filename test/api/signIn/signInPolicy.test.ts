import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../store/orm.ts';
import { eventually } from '../../support/eventually.ts';
import { insertMember } from '../../support/memberRows.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../support/scratchDatabase.ts';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

/**
 * SPEC-EXTENSIONS §15, the registry's side: a product's clients, a tenant's settings.sign_in, a member's break-glass mark
 * and the claims call's decision. On a database of this file's own: naming a product's clients hands a push to the actor
 * of every tenant there is, and changes what every catalog listing shows.
 */
let scratch: ScratchDatabase;
let service: TestService;
beforeAll(async () => {
  scratch = await createScratchDatabase('sign_in_policy');
  await migrate(scratch.ownerUrl, scratch.runtimeUrl);
  service = await startTestService({}, {}, scratch);
}, 60_000);
afterAll(async () => {
  await service?.close();
  await scratch?.drop();
});

type Tenant = { id: string; slug: string };
const sql = <T = Record<string, unknown>>(text: string, values: unknown[] = []) => service.orm.em.fork().execute<T[]>(text, values);

async function createTenant(): Promise<Tenant> {
  const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('sgn'), name: 'Sign-in policy' });
  expect(res.status).toBe(201);
  return res.body.tenant;
}

async function memberOf(tenant: Tenant, status: 'active' | 'inactive' | 'pending' = 'active'): Promise<string> {
  const userId = randomUUID();
  await insertMember(service.orm, { tenantId: tenant.id, userId, status, roles: ['MEMBER'] });
  return userId;
}

const eventsOf = async (tenantId: string, action: string) =>
  (await service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=${action}`)).body.items as { metadata: Record<string, unknown>; target_id?: string }[];
const catalogEvents = () => sql<{ metadata: Record<string, unknown> }>(`select metadata from audit_events where action = 'catalog.clients_changed' order by id`);
const pushesOf = async (tenantId: string) => Number((await sql<{ n: string }>(`select count(*) as n from tenant_actor_outbox where tenant_id = ? and command = 'pushClaims'`, [tenantId]))[0]!.n);
const putClients = (product: string, body: unknown) => service.request('PUT', `/v1/catalog/${product}/clients`, body);
const entry = async (product: string) => ((await service.request('GET', '/v1/catalog')).body.items as { key: string }[]).find((p) => p.key === product);
const claims = (body: Record<string, unknown>) => service.request('POST', '/v1/internal/idp/claims', body);
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('PUT /v1/catalog/{product}/clients', () => {
  it("names a product's clients, each once, sorted, with its fail mode, on its catalog entry; audited; pushed to every tenant that is not archived", async () => {
    const [live, archived] = [await createTenant(), await createTenant()];
    await sql(`update tenants set status = 'archived' where id = ?`, [archived.id]);
    const pushedBefore = [await pushesOf(live.id), await pushesOf(archived.id)];
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const res = await putClients('automation', { client_ids: [b, a, b], fail: 'closed' });
    expect(res).toMatchObject({ status: 200, body: { key: 'automation', client_ids: [a, b], fail: 'closed' } });
    expect(await entry('automation')).toMatchObject({ client_ids: [a, b], fail: 'closed' });
    expect((await catalogEvents()).at(-1)!.metadata).toEqual({ product: 'automation', old: { client_ids: [], fail: 'open' }, new: { client_ids: [a, b], fail: 'closed' } });
    expect([await pushesOf(live.id), await pushesOf(archived.id)]).toEqual([pushedBefore[0]! + 1, pushedBefore[1]]);

    // Without fail the product keeps its own; the same clients again change nothing and push nothing.
    expect((await putClients('automation', { client_ids: [a, b] })).body).toMatchObject({ client_ids: [a, b], fail: 'closed' });
    expect(await pushesOf(live.id)).toBe(pushedBefore[0]! + 1);
    expect((await putClients('automation', { client_ids: [], fail: 'open' })).body).toMatchObject({ client_ids: [], fail: 'open' });
    expect(await entry('automation')).toMatchObject({ client_ids: [], fail: 'open' });
  });

  it('refuses a client another product has with 409 naming it, and changes neither product', async () => {
    const taken = `taken-${randomUUID()}`;
    expect((await putClients('analytics', { client_ids: [taken] })).status).toBe(200);
    const before = (await catalogEvents()).length;
    const res = await putClients('data-export', { client_ids: [`free-${randomUUID()}`, taken] });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain(`${taken} (analytics)`);
    expect(await entry('data-export')).toMatchObject({ client_ids: [] });
    expect(await entry('analytics')).toMatchObject({ client_ids: [taken] });
    expect(await catalogEvents()).toHaveLength(before);
    expect((await putClients('analytics', { client_ids: [] })).status).toBe(200);
  });

  it('is 400 for a body out of its schema and 404 for no such product, changing nothing', async () => {
    const before = (await catalogEvents()).length;
    for (const body of [{}, { client_ids: 'app' }, { client_ids: ['has space'] }, { client_ids: [''] }, { client_ids: [], fail: 'maybe' }, { client_ids: [], extra: true }]) {
      expect((await putClients('sso', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await putClients('teleportation', { client_ids: ['x'] })).status).toBe(404);
    expect(await catalogEvents()).toHaveLength(before);
    expect(await entry('sso')).toMatchObject({ client_ids: [], fail: 'open' });
  });
});

describe("a tenant's settings.sign_in", () => {
  const patch = (tenant: Tenant, signIn: unknown) => service.request('PATCH', `/v1/tenants/${tenant.id}`, { settings: { sign_in: signIn } });
  const policyOf = async (tenant: Tenant) => (await service.request('GET', `/v1/tenants/${tenant.id}`)).body.settings.sign_in;

  it('defaults to no requirement; the fields given replace the stored ones, null removes the session limit; audited and pushed', async () => {
    const tenant = await createTenant();
    const pushedBefore = await pushesOf(tenant.id);
    expect(await policyOf(tenant)).toEqual({ require_sso: false, mfa: 'off' });
    const res = await patch(tenant, { require_sso: true, session_max_hours: 12 });
    expect(res).toMatchObject({ status: 200, body: { settings: { sign_in: { require_sso: true, mfa: 'off', session_max_hours: 12 } } } });
    expect(await patch(tenant, { mfa: 'required' })).toMatchObject({ status: 200 });
    expect(await policyOf(tenant)).toEqual({ require_sso: true, mfa: 'required', session_max_hours: 12 });
    expect(await patch(tenant, { session_max_hours: null })).toMatchObject({ status: 200 });
    expect(await policyOf(tenant)).toEqual({ require_sso: true, mfa: 'required' });
    const updates = await eventsOf(tenant.id, 'tenant.updated');
    expect(updates).toHaveLength(3);
    expect(updates.map((e) => (e.metadata.changes as { settings: { new: { sign_in: unknown } } }).settings.new.sign_in)).toEqual(
      expect.arrayContaining([{ require_sso: true, mfa: 'required' }]),
    );
    expect(await pushesOf(tenant.id)).toBe(pushedBefore + 3);
  });

  it('is 400 for any value out of its schema, and changes nothing', async () => {
    const tenant = await createTenant();
    expect(await patch(tenant, { mfa: 'required' })).toMatchObject({ status: 200 });
    const bad = [{ mfa: 'sometimes' }, { require_sso: 'yes' }, { session_max_hours: 0 }, { session_max_hours: 8761 }, { session_max_hours: 1.5 }, { allow_passwords: true }, 'on', null];
    for (const signIn of bad) expect((await patch(tenant, signIn)).status, JSON.stringify(signIn)).toBe(400);
    expect((await service.request('PATCH', `/v1/tenants/${tenant.id}`, { settings: { sign_in: { mfa: 'off' } }, name: '' })).status).toBe(400);
    expect(await policyOf(tenant)).toEqual({ require_sso: false, mfa: 'required' });
    expect(await eventsOf(tenant.id, 'tenant.updated')).toHaveLength(1);
  });
});

describe("a member's break_glass", () => {
  const mark = (tenant: Tenant, userId: string, body: unknown) => service.request('PUT', `/v1/tenants/${tenant.id}/members/${userId}/break-glass`, body);

  it('is set and cleared by members:write, audited with old and new, handed to the actor; the same value again changes nothing', async () => {
    const tenant = await createTenant();
    const userId = await memberOf(tenant);
    expect((await service.request('GET', `/v1/tenants/${tenant.id}/members/${userId}`)).body).toMatchObject({ break_glass: false });
    expect(await mark(tenant, userId, { break_glass: true })).toMatchObject({ status: 200, body: { user_id: userId, break_glass: true } });
    expect(await mark(tenant, userId, { break_glass: true })).toMatchObject({ status: 200, body: { break_glass: true } });
    expect((await service.request('GET', `/v1/tenants/${tenant.id}/members/${userId}`)).body).toMatchObject({ break_glass: true });
    expect(await mark(tenant, userId, { break_glass: false })).toMatchObject({ status: 200, body: { break_glass: false } });
    expect((await eventsOf(tenant.id, 'member.break_glass_changed')).map((e) => e.metadata)).toEqual([{ from: true, to: false }, { from: false, to: true }]);
    const syncs = await sql(`select 1 from tenant_actor_outbox where tenant_id = ? and command = 'syncMember' and payload->>'user_id' = ?`, [tenant.id, userId]);
    expect(syncs).toHaveLength(2);
  });

  it('is 400 for a body out of its schema and 404 for a user who is no member', async () => {
    const tenant = await createTenant();
    const userId = await memberOf(tenant);
    for (const body of [{}, { break_glass: 'yes' }, { break_glass: true, roles: [] }]) expect((await mark(tenant, userId, body)).status, JSON.stringify(body)).toBe(400);
    expect((await mark(tenant, randomUUID(), { break_glass: true })).status).toBe(404);
    expect(await eventsOf(tenant.id, 'member.break_glass_changed')).toEqual([]);
  });
});

describe('POST /v1/internal/idp/claims with client_id: the decision', () => {
  /** A tenant entitled to `analytics`, whose client this file names; a client of no product; one of a product it lacks. */
  let entitledClient: string;
  let unentitledClient: string;
  const freeClient = `free-${randomUUID()}`;
  beforeAll(async () => {
    entitledClient = `reports-${randomUUID()}`;
    unentitledClient = `exports-${randomUUID()}`;
    expect((await putClients('api-access', { client_ids: [entitledClient] })).status).toBe(200);
    expect((await putClients('data-export', { client_ids: [unentitledClient] })).status).toBe(200);
  });
  afterAll(async () => {
    await putClients('api-access', { client_ids: [] });
    await putClients('data-export', { client_ids: [] });
  });

  async function entitledTenant(): Promise<Tenant> {
    const tenant = await createTenant();
    expect((await service.request('PUT', `/v1/tenants/${tenant.id}/entitlements/api-access`, {})).status).toBeLessThan(300);
    return tenant;
  }
  const signIn = (tenant: Tenant, userId: string, more: Record<string, unknown> = {}) =>
    claims({ tenant_id: tenant.id, user_id: userId, client_id: entitledClient, amr: ['pwd'], auth_time: nowSeconds() - 60, ...more });
  const decisionOf = async (request: Promise<{ status: number; body: any }>) => {
    const res = await request;
    expect(res.status).toBe(200);
    return res.body.reason === undefined ? res.body.decision : `${res.body.decision}:${res.body.reason}`;
  };

  it('allows an active member of an entitled tenant, for the product\'s client and for a client of no product; the answer keeps its claims', async () => {
    const tenant = await entitledTenant();
    const userId = await memberOf(tenant);
    const res = await signIn(tenant, userId);
    expect(res.body).toMatchObject({ tenant_id: tenant.id, products: ['api-access'], membership_status: 'active', decision: 'allow' });
    expect(res.body).not.toHaveProperty('reason');
    expect(await decisionOf(signIn(tenant, userId, { client_id: freeClient }))).toBe('allow');
  });

  it('answers no decision without client_id, and 400 for client_id without user_id', async () => {
    const tenant = await entitledTenant();
    const userId = await memberOf(tenant);
    const res = await claims({ tenant_id: tenant.id, user_id: userId });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('decision');
    expect((await claims({ tenant_id: tenant.id, client_id: entitledClient })).status).toBe(400);
  });

  it('refuses a client of a product the tenant holds no entitlement to, and after its entitlement is revoked: audited sign_in.refused with the reason', async () => {
    const tenant = await entitledTenant();
    const userId = await memberOf(tenant);
    expect(await decisionOf(signIn(tenant, userId, { client_id: unentitledClient }))).toBe('deny:not_entitled');
    expect((await service.request('DELETE', `/v1/tenants/${tenant.id}/entitlements/api-access`)).status).toBeLessThan(300);
    expect(await decisionOf(signIn(tenant, userId))).toBe('deny:not_entitled');
    const refused = await eventually(async () => {
      const events = await eventsOf(tenant.id, 'sign_in.refused');
      return events.length === 2 && events;
    }, 10_000, 'two sign_in.refused');
    expect(refused.map((e) => e.metadata)).toEqual([
      expect.objectContaining({ reason: 'not_entitled', user_id: userId, client_id: entitledClient, product: 'api-access' }),
      expect.objectContaining({ reason: 'not_entitled', user_id: userId, client_id: unentitledClient, product: 'data-export' }),
    ]);
  });

  it('refuses frozen and archived tenants, members who are inactive or none, a pending member for a product\'s client', async () => {
    const frozen = await entitledTenant();
    const frozenMember = await memberOf(frozen);
    expect((await service.request('POST', `/v1/tenants/${frozen.id}/cancel`, {})).status).toBeLessThan(300);
    expect(await decisionOf(signIn(frozen, frozenMember))).toBe('deny:tenant_frozen');
    expect((await service.request('POST', `/v1/tenants/${frozen.id}/archive`, {})).status).toBeLessThan(300);
    expect(await decisionOf(signIn(frozen, frozenMember))).toBe('deny:tenant_archived');

    const tenant = await entitledTenant();
    expect(await decisionOf(signIn(tenant, await memberOf(tenant, 'inactive')))).toBe('deny:member_inactive');
    expect(await decisionOf(signIn(tenant, randomUUID()))).toBe('deny:not_a_member');
    const pending = await memberOf(tenant, 'pending');
    expect(await decisionOf(signIn(tenant, pending))).toBe('deny:not_a_member');
    expect(await decisionOf(signIn(tenant, pending, { client_id: freeClient }))).toBe('allow');
  });

  it("require_sso: refuses a password, allows the tenant's SSO connection, and a break-glass member's password, audited member.break_glass_used once per sign-in", async () => {
    const tenant = await entitledTenant();
    const [userId, breakGlass] = [await memberOf(tenant), await memberOf(tenant)];
    const connection = randomUUID();
    await sql(
      `insert into sso_connections (id, tenant_id, issuer, client_id, client_secret_sealed, endpoints, domains, state, idp_alias, created_at, updated_at)
       values (?, ?, 'https://idp.example.test', 'registry', 'sealed', '{}', '{}', 'active', ?, now(), now())`,
      [connection, tenant.id, `sso-${connection}`],
    );
    expect((await service.request('PATCH', `/v1/tenants/${tenant.id}`, { settings: { sign_in: { require_sso: true } } })).status).toBe(200);
    expect((await service.request('PUT', `/v1/tenants/${tenant.id}/members/${breakGlass}/break-glass`, { break_glass: true })).status).toBe(200);

    expect(await decisionOf(signIn(tenant, userId))).toBe('deny:sso_required');
    expect(await decisionOf(signIn(tenant, userId, { identity_provider: 'some-other-broker' }))).toBe('deny:sso_required');
    expect(await decisionOf(signIn(tenant, userId, { identity_provider: `sso-${connection}`, amr: [] }))).toBe('allow');
    const authTime = nowSeconds() - 30;
    expect(await decisionOf(signIn(tenant, breakGlass, { auth_time: authTime }))).toBe('allow');
    expect(await decisionOf(signIn(tenant, breakGlass, { auth_time: authTime }))).toBe('allow');
    const used = await eventually(async () => {
      const events = await eventsOf(tenant.id, 'member.break_glass_used');
      return events.length > 0 && events;
    }, 10_000, 'member.break_glass_used');
    expect(used.map((e) => e.metadata)).toEqual([{ user_id: breakGlass, client_id: entitledClient, product: 'api-access', auth_time: authTime }]);
    await sql(`update sso_connections set state = 'inactive' where id = ?`, [connection]);
    // What the change listener does when the table's trigger notifies t:<tenant> (test/store/changeListener.test.ts).
    service.deps.cache.invalidateTenant(tenant.id);
    expect(await decisionOf(signIn(tenant, userId, { identity_provider: `sso-${connection}`, amr: [] }))).toBe('deny:sso_required');
  });

  it('mfa required: refuses a password alone, allows a second factor; session_max_hours: refuses an older session', async () => {
    const tenant = await entitledTenant();
    const userId = await memberOf(tenant);
    expect((await service.request('PATCH', `/v1/tenants/${tenant.id}`, { settings: { sign_in: { mfa: 'required', session_max_hours: 1 } } })).status).toBe(200);
    expect(await decisionOf(signIn(tenant, userId))).toBe('deny:mfa_required');
    expect(await decisionOf(signIn(tenant, userId, { amr: ['pwd', 'otp'] }))).toBe('allow');
    expect(await decisionOf(signIn(tenant, userId, { amr: ['pwd', 'otp'], auth_time: nowSeconds() - 2 * 3600 }))).toBe('deny:session_too_old');
    expect(await decisionOf(signIn(tenant, userId, { amr: ['pwd', 'otp'], auth_time: undefined }))).toBe('deny:session_too_old');
  });
});
