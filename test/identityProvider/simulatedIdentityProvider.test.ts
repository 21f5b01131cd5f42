import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TenantRef } from '../../identityProvider/identityProvider.ts';
import { SimulatedIdentityProvider } from '../../identityProvider/simulatedIdentityProvider.ts';
import {
  capturedEmails,
  clearFaults,
  injectFault,
  listFaults,
  seedForeignOrganization,
  seedForeignUser,
} from '../../store/simulatorControl.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { uniqueSlug } from '../support/testService.ts';

const BASE_URL = 'http://127.0.0.1:8080';

let orm: Orm;
let idp: SimulatedIdentityProvider;
beforeAll(async () => {
  orm = await openOrm(inject('databaseUrl'), 8);
  idp = new SimulatedIdentityProvider(orm, BASE_URL);
});
afterAll(() => orm.close());

// Every test works on its own tenant, slug and address: other test files share the database and run in parallel.
const newTenant = (): TenantRef => {
  const slug = uniqueSlug('idp');
  return { tenantId: randomUUID(), slug, name: `Tenant ${slug}` };
};
const adminOf = (tenant: TenantRef) => `Admin.${tenant.slug}@Example.COM`;

const rows = <T>(sql: string, params: unknown[]) => orm.em.fork().execute<T[]>(sql, params);
const idpError = (kind: string, status: number) => expect.objectContaining({ name: 'IdpError', kind, status });

async function provision(tenant: TenantRef) {
  const { organizationId } = await idp.ensureOrganization(tenant);
  const { userId } = await idp.ensureUser(tenant, adminOf(tenant), 'Ada Byron King');
  await idp.ensureMembership(organizationId, userId);
  const { inviteUrl } = await idp.sendInvite(userId);
  return { organizationId, userId, inviteUrl };
}

describe('SimulatedIdentityProvider', () => {
  it('provisioning creates the organization, the IT_ADMIN user with VERIFY_EMAIL and UPDATE_PASSWORD, the membership and the invite e-mail', async () => {
    const tenant = newTenant();
    const { organizationId, userId, inviteUrl } = await provision(tenant);

    const [org] = await rows<any>('select * from idp_sim_organizations where id = ?', [organizationId]);
    expect(org).toMatchObject({ name: tenant.name, alias: tenant.slug, attributes: { tenant_id: [tenant.tenantId] } });
    const address = adminOf(tenant).toLowerCase();
    const [user] = await rows<any>('select * from idp_sim_users where id = ?', [userId]);
    expect(user).toMatchObject({
      username: address,
      email: address,
      first_name: 'Ada',
      last_name: 'Byron King',
      enabled: true,
      email_verified: false,
      attributes: { tenant_id: [tenant.tenantId] },
      realm_roles: ['IT_ADMIN'],
      required_actions: ['VERIFY_EMAIL', 'UPDATE_PASSWORD'],
    });
    expect(await idp.listTenantUserIds(tenant.tenantId)).toEqual([userId]);
    const emails = await capturedEmails(orm, address);
    expect(emails).toEqual([
      expect.objectContaining({
        userId,
        toAddress: address,
        actions: ['VERIFY_EMAIL', 'UPDATE_PASSWORD'],
        actionUrl: inviteUrl,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      }),
    ]);
    expect(inviteUrl).toMatch(/^http:\/\/127\.0\.0\.1:8080\/idp-sim\/login-actions\/action-token\?key=[A-Za-z0-9_-]{43}$/);
  });

  it('each ensure step reuses what an earlier attempt for the same tenant created', async () => {
    const tenant = newTenant();
    const first = await provision(tenant);
    const second = await provision(tenant);

    expect(second.organizationId).toBe(first.organizationId);
    expect(second.userId).toBe(first.userId);
    expect(await rows('select id from idp_sim_organizations where alias = ?', [tenant.slug])).toHaveLength(1);
    expect(await rows('select id from idp_sim_users where email = ?', [adminOf(tenant).toLowerCase()])).toHaveLength(1);
    expect(await rows('select user_id from idp_sim_memberships where organization_id = ?', [first.organizationId])).toHaveLength(1);
    // A resend is a new e-mail with a new action token, as with Keycloak's execute-actions-email.
    expect(second.inviteUrl).not.toBe(first.inviteUrl);
    expect(await capturedEmails(orm, adminOf(tenant))).toHaveLength(2);
  });

  it('an organization alias or name held by another tenant or by no tenant fails with organization_exists', async () => {
    const owner = newTenant();
    await idp.ensureOrganization(owner);
    await expect(idp.ensureOrganization({ ...newTenant(), slug: owner.slug })).rejects.toEqual(idpError('organization_exists', 409));
    await expect(idp.ensureOrganization({ ...newTenant(), name: owner.name })).rejects.toEqual(idpError('organization_exists', 409));

    const tenant = newTenant();
    await seedForeignOrganization(orm, { alias: tenant.slug });
    await expect(idp.ensureOrganization(tenant)).rejects.toEqual(idpError('organization_exists', 409));
  });

  it('an e-mail held by another tenant or by no tenant fails with user_exists', async () => {
    const owner = newTenant();
    await idp.ensureUser(owner, adminOf(owner), undefined);
    await expect(idp.ensureUser(newTenant(), adminOf(owner), undefined)).rejects.toEqual(idpError('user_exists', 409));

    const tenant = newTenant();
    await seedForeignUser(orm, { email: adminOf(tenant) });
    await expect(idp.ensureUser(tenant, adminOf(tenant), undefined)).rejects.toEqual(idpError('user_exists', 409));
  });

  it('an injected unauthorized fault raises unauthorized (401) at its step until its times are used up', async () => {
    const tenant = newTenant();
    const fault = await injectFault(orm, { kind: 'unauthorized', step: 'organization', tenantSlug: tenant.slug, times: 2 });
    expect(fault).toMatchObject({ kind: 'unauthorized', step: 'organization', tenantSlug: tenant.slug, remaining: 2 });

    await expect(idp.ensureOrganization(tenant)).rejects.toEqual(idpError('unauthorized', 401));
    await expect(idp.ensureOrganization(tenant)).rejects.toEqual(idpError('unauthorized', 401));
    await expect(idp.ensureOrganization(tenant)).resolves.toEqual({ organizationId: expect.any(String) });
    expect((await listFaults(orm)).map((f) => f.id)).not.toContain(fault.id);
  });

  it('an injected unavailable fault without a step raises unavailable (503) at any provisioning step until its times are used up', async () => {
    const tenant = newTenant();
    await injectFault(orm, { kind: 'unavailable', tenantSlug: tenant.slug, times: 2 });

    await expect(idp.ensureOrganization(tenant)).rejects.toEqual(idpError('unavailable', 503));
    await expect(idp.ensureUser(tenant, adminOf(tenant), undefined)).rejects.toEqual(idpError('unavailable', 503));
    await expect(provision(tenant)).resolves.toMatchObject({ inviteUrl: expect.any(String) });
  });

  it('a fault without times lasts until cleared, and a tenant-scoped fault leaves other tenants alone', async () => {
    const tenant = newTenant();
    await injectFault(orm, { kind: 'unavailable', step: 'user', tenantSlug: tenant.slug });
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(idp.ensureUser(tenant, adminOf(tenant), undefined)).rejects.toEqual(idpError('unavailable', 503));
    }
    const other = newTenant();
    await expect(idp.ensureUser(other, adminOf(other), undefined)).resolves.toEqual({ userId: expect.any(String) });

    expect(await clearFaults(orm, { tenantSlug: tenant.slug })).toBe(1);
    await expect(idp.ensureUser(tenant, adminOf(tenant), undefined)).resolves.toEqual({ userId: expect.any(String) });
  });

  it('a tenant-scoped fault reaches the steps that name the tenant by its organization, a member or its id, and no other tenant', async () => {
    const tenant = newTenant();
    const other = newTenant();
    const mine = await provision(tenant);
    const theirs = await provision(other);
    for (const step of ['membership', 'invite', 'memberships', 'list_users'] as const) {
      await injectFault(orm, { kind: 'unavailable', step, tenantSlug: tenant.slug, times: 1 });
    }
    await expect(idp.ensureMembership(mine.organizationId, mine.userId)).rejects.toEqual(idpError('unavailable', 503));
    await expect(idp.sendInvite(mine.userId)).rejects.toEqual(idpError('unavailable', 503));
    await expect(idp.memberships(mine.userId)).rejects.toEqual(idpError('unavailable', 503));
    await expect(idp.listTenantUserIds(tenant.tenantId)).rejects.toEqual(idpError('unavailable', 503));
    // Each fault was for one call: the tenant's next calls, and the other tenant's all along, go through.
    await expect(idp.memberships(mine.userId)).resolves.toHaveLength(1);
    await expect(idp.ensureMembership(theirs.organizationId, theirs.userId)).resolves.toBeUndefined();
    await expect(idp.memberships(theirs.userId)).resolves.toHaveLength(1);
    await expect(idp.listTenantUserIds(other.tenantId)).resolves.toEqual([theirs.userId]);
  });

  it('injected organization_exists and user_exists faults raise those kinds (409)', async () => {
    const tenant = newTenant();
    await injectFault(orm, { kind: 'organization_exists', step: 'organization', tenantSlug: tenant.slug, times: 1 });
    await injectFault(orm, { kind: 'user_exists', step: 'user', tenantSlug: tenant.slug, times: 1 });
    await expect(idp.ensureOrganization(tenant)).rejects.toEqual(idpError('organization_exists', 409));
    await expect(idp.ensureUser(tenant, adminOf(tenant), undefined)).rejects.toEqual(idpError('user_exists', 409));
  });

  it('concurrent ensureOrganization calls for one tenant end with one organization', async () => {
    const tenant = newTenant();
    const results = await Promise.all(Array.from({ length: 6 }, () => idp.ensureOrganization(tenant)));

    expect(new Set(results.map((r) => r.organizationId)).size).toBe(1);
    expect(await rows('select id from idp_sim_organizations where alias = ?', [tenant.slug])).toHaveLength(1);
  });

  it('concurrent ensureUser calls for one tenant end with one user', async () => {
    const tenant = newTenant();
    const results = await Promise.all(Array.from({ length: 6 }, () => idp.ensureUser(tenant, adminOf(tenant), undefined)));

    expect(new Set(results.map((r) => r.userId)).size).toBe(1);
    expect(await rows('select id from idp_sim_users where email = ?', [adminOf(tenant).toLowerCase()])).toHaveLength(1);
  });

  it("pushClaims writes the claim attributes and keeps the user's org_roles", async () => {
    const tenant = newTenant();
    const { userId } = await provision(tenant);
    const claims = { tenant_id: tenant.tenantId, tenant_slug: tenant.slug, plan: 'starter', tenant_status: 'trial' as const };
    await idp.pushClaims(userId, { ...claims, org_roles: ['owner', 'billing'], products: ['analytics'] });
    await idp.pushClaims(userId, { ...claims, plan: 'growth', tenant_status: 'active', products: [] });

    const [user] = await rows<any>('select attributes from idp_sim_users where id = ?', [userId]);
    expect(user.attributes).toEqual({
      tenant_id: [tenant.tenantId],
      tenant_slug: [tenant.slug],
      plan: ['growth'],
      tenant_status: ['active'],
      org_roles: ['owner', 'billing'],
    });
  });

  it('memberships returns the organization with its tenantId and the user’s orgRoles', async () => {
    const tenant = newTenant();
    const { organizationId, userId } = await provision(tenant);
    await idp.pushClaims(userId, {
      tenant_id: tenant.tenantId,
      tenant_slug: tenant.slug,
      plan: 'starter',
      tenant_status: 'trial',
      org_roles: ['admin'],
    });

    expect(await idp.memberships(userId)).toEqual([
      {
        organizationId,
        tenantId: tenant.tenantId,
        alias: tenant.slug,
        name: tenant.name,
        orgRoles: ['admin'],
        attributes: expect.objectContaining({ tenant_id: [tenant.tenantId], org_roles: ['admin'] }),
      },
    ]);
  });

  it('memberships of an unknown user is an empty list', async () => {
    expect(await idp.memberships(randomUUID())).toEqual([]);
    expect(await idp.memberships('not-a-keycloak-id')).toEqual([]);
  });

  it('listTenantUserIds is empty for a tenant without an organization', async () => {
    expect(await idp.listTenantUserIds(randomUUID())).toEqual([]);
  });

  it('membership, invite and claim push for an unknown organization or user are rejected (404)', async () => {
    const tenant = newTenant();
    const { organizationId } = await idp.ensureOrganization(tenant);
    await expect(idp.ensureMembership(organizationId, randomUUID())).rejects.toEqual(idpError('rejected', 404));
    await expect(idp.sendInvite(randomUUID())).rejects.toEqual(idpError('rejected', 404));
    await expect(
      idp.pushClaims(randomUUID(), { tenant_id: tenant.tenantId, tenant_slug: tenant.slug, plan: 'starter', tenant_status: 'trial' }),
    ).rejects.toEqual(idpError('rejected', 404));
  });

  it('ping answers while the store is reachable and fails with unavailable (503) when it is not', async () => {
    await expect(idp.ping()).resolves.toBeUndefined();
    const unreachable = await openOrm('postgres://postgres:postgres@127.0.0.1:1/none', 1);
    try {
      await expect(new SimulatedIdentityProvider(unreachable, BASE_URL).ping()).rejects.toEqual(idpError('unavailable', 503));
    } finally {
      await unreachable.close();
    }
  });
});
