import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';
import type { MemberStatus } from '../../../domain/members/memberRecord.ts';
import { eventually } from '../../support/eventually.ts';
import { insertMember } from '../../support/memberRows.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

/** SPEC-EXTENSIONS §7 "Claims": with user_id, the claims are the member's in the token's tenant. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const IT_ADMIN_PERMISSIONS = ['audit:read', 'directory:manage', 'members:manage', 'sso:manage'];
type Tenant = { id: string; slug: string };

async function createTenant(): Promise<Tenant> {
  const res = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('mclm'), name: 'Member claims' });
  expect(res.status).toBe(201);
  return res.body.tenant;
}

/** A user (a federated id, as the provider may give) with a membership of the given status in each tenant. */
async function userIn(...memberships: [Tenant, MemberStatus, string[]?][]): Promise<string> {
  const userId = `f:ldap:${randomUUID()}`;
  for (const [tenant, status, roles] of memberships) await insertMember(service.orm, { tenantId: tenant.id, userId, status, roles: roles ?? ['IT_ADMIN'] });
  return userId;
}

const claims = (body: unknown) => service.request('POST', '/v1/internal/idp/claims', body);

describe('POST /v1/internal/idp/claims with user_id: a tenant named in the body is the tenant, its member record decides', () => {
  it("an active member gets its roles and permissions there; user_attrs.org_roles are ignored", async () => {
    const tenant = await createTenant();
    const userId = await userIn([tenant, 'active', ['IT_ADMIN', 'MEMBER']]);
    const res = await claims({ tenant_id: tenant.id, user_id: userId, user_attrs: { org_roles: 'SUPERUSER' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tenant_id: tenant.id, tenant_slug: tenant.slug, org_roles: ['IT_ADMIN', 'MEMBER'], products: [], plan: 'starter', tenant_status: 'trial',
      permissions: IT_ADMIN_PERMISSIONS, membership_status: 'active',
    });
  });

  it("a tenant's own role gives its permissions, by tenant_slug too", async () => {
    const tenant = await createTenant();
    const permission = `reports:export-${randomUUID().slice(0, 8)}`;
    expect((await service.request('POST', '/v1/permissions', { slug: permission })).status).toBe(201);
    const role = `Reporter_${randomUUID().slice(0, 8)}`;
    expect((await service.request('POST', '/v1/roles', { slug: role, name: 'Reporter', permissions: [permission], tenant_id: tenant.id })).status).toBe(201);
    const userId = await userIn([tenant, 'active', [role]]);
    expect((await claims({ tenant_slug: tenant.slug, user_id: userId })).body).toMatchObject({ org_roles: [role], permissions: [permission], membership_status: 'active' });
  });

  it('a pending member (its invitation not yet accepted) is pending with no roles and no permissions: nothing is granted before acceptance', async () => {
    const tenant = await createTenant();
    const userId = await userIn([tenant, 'pending']);
    const res = await claims({ tenant_id: tenant.id, user_id: userId, user_attrs: { org_roles: 'IT_ADMIN' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant_id: tenant.id, org_roles: [], permissions: [], membership_status: 'pending' });
  });

  it('an inactive member gets no roles and no permissions', async () => {
    const tenant = await createTenant();
    const userId = await userIn([tenant, 'inactive']);
    expect((await claims({ tenant_id: tenant.id, user_id: userId, user_attrs: { org_roles: 'IT_ADMIN' } })).body).toMatchObject({
      org_roles: [], permissions: [], membership_status: 'inactive',
    });
  });

  it("a user with no record there is none, with no roles but the tenant's plan, status and products", async () => {
    const [tenant, other] = [await createTenant(), await createTenant()];
    expect((await service.request('PUT', `/v1/tenants/${tenant.id}/entitlements/analytics`)).status).toBe(201);
    const userId = await userIn([other, 'active']);
    const res = await claims({ tenant_id: tenant.id, user_id: userId, user_attrs: { org_roles: 'IT_ADMIN' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tenant_id: tenant.id, tenant_slug: tenant.slug, org_roles: [], products: ['analytics'], plan: 'starter', tenant_status: 'trial', permissions: [], membership_status: 'none',
    });
  });

  it('an unknown named tenant is still 404', async () => {
    const userId = await userIn([await createTenant(), 'active']);
    expect((await claims({ tenant_id: randomUUID(), user_id: userId })).status).toBe(404);
  });
});

describe("POST /v1/internal/idp/claims with user_id and no tenant named: the user's memberships decide", () => {
  it('exactly one active membership is the tenant, whatever the attributes name', async () => {
    const [a, b, c] = [await createTenant(), await createTenant(), await createTenant()];
    const userId = await userIn([a, 'pending'], [b, 'active', ['MEMBER']], [c, 'inactive']);
    const res = await claims({ user_id: userId, user_attrs: { tenant_id: a.id, org_roles: 'IT_ADMIN' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant_id: b.id, org_roles: ['MEMBER'], permissions: [], membership_status: 'active' });
  });

  it('several active memberships: the attributes name the tenant, by tenant_id then tenant_slug, the member record deciding', async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const userId = await userIn([a, 'active', ['MEMBER']], [b, 'active']);
    expect((await claims({ user_id: userId, user_attrs: { tenant_id: b.id, tenant_slug: a.slug } })).body).toMatchObject({ tenant_id: b.id, org_roles: ['IT_ADMIN'] });
    expect((await claims({ user_id: userId, user_attrs: { tenant_slug: a.slug } })).body).toMatchObject({ tenant_id: a.id, org_roles: ['MEMBER'] });
  });

  it('no active membership: the attributes name the tenant, and an inactive or pending record there gives nothing', async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const userId = await userIn([a, 'inactive'], [b, 'pending']);
    expect((await claims({ user_id: userId, user_attrs: { tenant_id: a.id } })).body).toMatchObject({ tenant_id: a.id, org_roles: [], membership_status: 'inactive' });
    expect((await claims({ user_id: userId, user_attrs: { tenant_slug: b.slug } })).body).toMatchObject({ tenant_id: b.id, org_roles: [], permissions: [], membership_status: 'pending' });
  });

  it("attributes naming a tenant the user is no member of answer 404: attributes alone never give a tenant's claims", async () => {
    const [a, b, stranger] = [await createTenant(), await createTenant(), await createTenant()];
    const userId = await userIn([a, 'active'], [b, 'active']);
    for (const user_attrs of [{ tenant_id: stranger.id, org_roles: 'IT_ADMIN' }, { tenant_slug: stranger.slug }]) {
      const res = await claims({ user_id: userId, user_attrs });
      expect(res.status, JSON.stringify(user_attrs)).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    const nobody = await claims({ user_id: `nobody-${randomUUID()}`, user_attrs: { tenant_id: stranger.id } });
    expect(nobody.status).toBe(404);
  });

  it('without attributes and without a single active membership it is 404; without user_id and any key it stays 400', async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    expect((await claims({ user_id: await userIn([a, 'active'], [b, 'active']) })).status).toBe(404);
    expect((await claims({ user_id: `nobody-${randomUUID()}` })).status).toBe(404);
    expect((await claims({ user_attrs: { org_roles: 'IT_ADMIN' } })).status).toBe(400);
  });

  it('a user_id that cannot be an identity provider user id answers 400', async () => {
    const tenant = await createTenant();
    for (const user_id of ['', 'has space', 'a/b', 'x'.repeat(256), 42]) {
      expect((await claims({ tenant_id: tenant.id, user_id })).status, JSON.stringify(user_id)).toBe(400);
    }
  });
});

describe('a change of what a member holds reaches its next claims answer at once on the replica that made it', () => {
  // This service's cache hears no notifications (no change listener): only the change's own effects can refresh it.
  it("a role's changed permissions", async () => {
    const tenant = await createTenant();
    const permissions = [`reports:read-${randomUUID().slice(0, 8)}`, `reports:export-${randomUUID().slice(0, 8)}`];
    for (const slug of permissions) expect((await service.request('POST', '/v1/permissions', { slug })).status).toBe(201);
    const role = `Reporter_${randomUUID().slice(0, 8)}`;
    const created = await service.request('POST', '/v1/roles', { slug: role, name: 'Reporter', permissions: [permissions[0]], tenant_id: tenant.id });
    expect(created.status).toBe(201);
    const userId = await userIn([tenant, 'active', [role]]);
    expect((await claims({ tenant_id: tenant.id, user_id: userId })).body.permissions).toEqual([permissions[0]]);
    await eventually(async () => (await claims({ tenant_id: tenant.id, user_id: userId })).status === 200 && service.deps.cache.grants.get(userId) !== undefined, 5_000, 'the grants held');
    expect((await service.request('PATCH', `/v1/roles/${created.body.id}`, { permissions: [permissions[1]] })).status).toBe(200);
    expect((await claims({ tenant_id: tenant.id, user_id: userId })).body.permissions).toEqual([permissions[1]]);
  });

  it("a member's new roles, its deactivation, its reactivation and its removal", async () => {
    const tenant = await createTenant();
    // The tenant keeps an active IT_ADMIN whatever happens to the member under test.
    await userIn([tenant, 'active']);
    const userId = await userIn([tenant, 'active', ['MEMBER']]);
    const member = `/v1/tenants/${tenant.id}/members/${encodeURIComponent(userId)}`;
    const now = async () => (await claims({ tenant_id: tenant.id, user_id: userId })).body;
    expect(await now()).toMatchObject({ org_roles: ['MEMBER'], permissions: [], membership_status: 'active' });
    await eventually(async () => (await now()).membership_status === 'active' && service.deps.cache.grants.get(userId) !== undefined, 5_000, 'the grants held');

    expect((await service.request('PUT', member, { roles: ['IT_ADMIN', 'MEMBER'] })).status).toBe(200);
    expect(await now()).toMatchObject({ org_roles: ['IT_ADMIN', 'MEMBER'], permissions: IT_ADMIN_PERMISSIONS, membership_status: 'active' });
    expect((await service.request('POST', `${member}/deactivate`)).status).toBe(200);
    expect(await now()).toMatchObject({ org_roles: [], permissions: [], membership_status: 'inactive' });
    expect((await service.request('POST', `${member}/reactivate`)).status).toBe(200);
    expect(await now()).toMatchObject({ org_roles: ['IT_ADMIN', 'MEMBER'], membership_status: 'active' });
    expect((await service.request('DELETE', member)).status).toBe(204);
    expect(await now()).toMatchObject({ org_roles: [], permissions: [], membership_status: 'none' });
  });
});

describe('POST /v1/internal/idp/claims with user_id and a token bound to tenants', () => {
  let issuer: OidcIssuer;
  let authenticated: TestService;
  beforeAll(async () => {
    issuer = await startOidcIssuer();
    authenticated = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
  });
  afterAll(async () => {
    await authenticated?.close();
    await issuer?.close();
  });

  it("answers for its tenants and 404 for any other, the user's single active membership included", async () => {
    const [mine, other] = [await createTenant(), await createTenant()];
    const userId = await userIn([other, 'active'], [mine, 'pending']);
    const bound = { authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: 'product-x', scope: 'claims:read', tenant_id: mine.id })}` };
    const ask = (body: unknown) => authenticated.request('POST', '/v1/internal/idp/claims', body, bound);
    expect((await ask({ user_id: userId })).status).toBe(404);
    expect((await ask({ tenant_id: other.id, user_id: userId })).status).toBe(404);
    expect((await ask({ tenant_id: mine.id, user_id: userId })).body).toMatchObject({ tenant_id: mine.id, membership_status: 'pending' });
  });
});
