import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { TENANT_MEMBERSHIPS_ATTRIBUTE, type PushedMembership, type TenantRef } from '../../identityProvider/identityProvider.ts';
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
import { nativePool } from '../../store/nativePool.ts';
import { uniqueSlug } from '../support/testService.ts';
import { PUSHED_SIGN_IN_DEFAULTS } from '../support/pushedSignInDefaults.ts';

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
const attributesOf = async (userId: string) => (await rows<{ attributes: Record<string, string[]> }>('select attributes from idp_sim_users where id = ?', [userId]))[0]!.attributes;
/** The user's pushed values of tenant_memberships, by tenant slug. */
const valuesBySlug = (attributes: Record<string, string[]>) =>
  Object.fromEntries((attributes[TENANT_MEMBERSHIPS_ATTRIBUTE] ?? []).map((value) => [(JSON.parse(value) as PushedMembership).tenant_slug, JSON.parse(value) as PushedMembership]));
const pushed = (tenant: TenantRef, values: Partial<PushedMembership> = {}): PushedMembership => ({
  tenant_id: tenant.tenantId,
  tenant_slug: tenant.slug,
  plan: 'starter',
  tenant_status: 'trial',
  products: [],
  org_roles: [],
  permissions: [],
  membership_status: 'active',
  ...PUSHED_SIGN_IN_DEFAULTS,
  ...values,
});
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

  it("pushMembership writes the tenant's value of tenant_memberships and, for the user's home tenant, the top-level claim attributes", async () => {
    const tenant = newTenant();
    const { userId } = await provision(tenant);
    await idp.pushMembership(userId, tenant.slug, pushed(tenant, { org_roles: ['IT_ADMIN'], permissions: ['members:manage'], products: ['analytics'] }));
    await idp.pushMembership(userId, tenant.slug, pushed(tenant, { plan: 'growth', tenant_status: 'active', org_roles: ['MEMBER'] }));

    expect(await attributesOf(userId)).toEqual({
      tenant_id: [tenant.tenantId],
      tenant_slug: [tenant.slug],
      plan: ['growth'],
      tenant_status: ['active'],
      org_roles: ['MEMBER'],
      [TENANT_MEMBERSHIPS_ATTRIBUTE]: [JSON.stringify(pushed(tenant, { plan: 'growth', tenant_status: 'active', org_roles: ['MEMBER'] }))],
    });
  });

  it("pushMembership of another tenant adds that tenant's value and leaves the top-level attributes the home tenant's", async () => {
    const home = newTenant();
    const other = newTenant();
    const { userId } = await provision(home);
    await idp.pushMembership(userId, home.slug, pushed(home, { org_roles: ['IT_ADMIN'] }));
    await idp.pushMembership(userId, other.slug, pushed(other, { plan: 'enterprise', org_roles: ['MEMBER'], products: ['sso'] }));

    const attributes = await attributesOf(userId);
    expect(attributes).toMatchObject({ tenant_id: [home.tenantId], tenant_slug: [home.slug], plan: ['starter'], org_roles: ['IT_ADMIN'] });
    expect(attributes.products).toBeUndefined();
    expect(valuesBySlug(attributes)).toEqual({ [home.slug]: pushed(home, { org_roles: ['IT_ADMIN'] }), [other.slug]: pushed(other, { plan: 'enterprise', org_roles: ['MEMBER'], products: ['sso'] }) });
  });

  it('a user without a tenant_id attribute gets the first tenant pushed as its home tenant', async () => {
    const first = newTenant();
    const second = newTenant();
    const { userId } = await seedForeignUser(orm, { email: `nobody.${first.slug}@example.com` });
    await idp.pushMembership(userId, first.slug, pushed(first, { org_roles: ['MEMBER'] }));
    await idp.pushMembership(userId, second.slug, pushed(second, { org_roles: ['IT_ADMIN'] }));

    expect(await attributesOf(userId)).toMatchObject({ tenant_id: [first.tenantId], tenant_slug: [first.slug], org_roles: ['MEMBER'] });
  });

  it("pushMembership with null removes the tenant's value; for the home tenant it clears the top-level claim attributes", async () => {
    const home = newTenant();
    const other = newTenant();
    const { userId } = await provision(home);
    await idp.pushMembership(userId, home.slug, pushed(home, { org_roles: ['IT_ADMIN'], products: ['analytics'] }));
    await idp.pushMembership(userId, other.slug, pushed(other));

    await idp.pushMembership(userId, other.slug, null);
    expect(Object.keys(valuesBySlug(await attributesOf(userId)))).toEqual([home.slug]);
    expect(await attributesOf(userId)).toMatchObject({ tenant_id: [home.tenantId], org_roles: ['IT_ADMIN'], products: ['analytics'] });

    await idp.pushMembership(userId, home.slug, null);
    expect(await attributesOf(userId)).toEqual({});
  });

  it("concurrent pushes of different tenants into one user all land: none writes over another's value", async () => {
    // Three: each round of read and conditional write lets one of them through, and a push has three rounds.
    const tenants = Array.from({ length: 3 }, newTenant);
    const { userId } = await provision(tenants[0]!);
    await Promise.all(tenants.map((tenant) => idp.pushMembership(userId, tenant.slug, pushed(tenant))));

    expect(Object.keys(valuesBySlug(await attributesOf(userId))).sort()).toEqual(tenants.map((t) => t.slug).sort());
  });

  it('removeMembership takes the user out of the organization; a user that is not a member is success', async () => {
    const tenant = newTenant();
    const { organizationId, userId } = await provision(tenant);
    await idp.removeMembership(organizationId, userId);
    expect(await idp.listTenantUserIds(tenant.tenantId)).toEqual([]);
    await expect(idp.removeMembership(organizationId, userId)).resolves.toBeUndefined();
    await expect(idp.removeMembership(organizationId, randomUUID())).resolves.toBeUndefined();
    await expect(idp.removeMembership(organizationId, 'not-a-keycloak-id')).resolves.toBeUndefined();
  });

  it('injected faults reach removeMembership (remove_membership) and pushMembership (push_claims) of their tenant', async () => {
    const tenant = newTenant();
    const { organizationId, userId } = await provision(tenant);
    await injectFault(orm, { kind: 'unauthorized', step: 'remove_membership', tenantSlug: tenant.slug, times: 1 });
    await injectFault(orm, { kind: 'unavailable', step: 'push_claims', tenantSlug: tenant.slug, times: 1 });
    await expect(idp.removeMembership(organizationId, userId)).rejects.toEqual(idpError('unauthorized', 401));
    await expect(idp.pushMembership(userId, tenant.slug, pushed(tenant))).rejects.toEqual(idpError('unavailable', 503));
    await expect(idp.removeMembership(organizationId, userId)).resolves.toBeUndefined();
    await expect(idp.pushMembership(userId, tenant.slug, pushed(tenant))).resolves.toBeUndefined();
  });

  it('memberships returns the organization with its tenantId and the user’s orgRoles', async () => {
    const tenant = newTenant();
    const { organizationId, userId } = await provision(tenant);
    await idp.pushMembership(userId, tenant.slug, pushed(tenant, { org_roles: ['admin'] }));

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

  it('memberships asked together share one look at the armed faults and one read of the organizations', async () => {
    const tenants = [newTenant(), newTenant(), newTenant()];
    const users: string[] = [];
    for (const tenant of tenants) users.push((await provision(tenant)).userId);
    const pool = await nativePool(orm);
    const sent = vi.spyOn(pool, 'query');
    try {
      const answers = await Promise.all(users.map((userId) => idp.memberships(userId)));
      expect(answers.map((memberships) => memberships.map((m) => m.tenantId))).toEqual(tenants.map((t) => [t.tenantId]));
      // Another file may arm a tenant-scoped fault at this step meanwhile; its match runs then, and is no read of these.
      const names = sent.mock.calls.map(([statement]) => (typeof statement === 'string' ? statement : (statement as { name: string }).name));
      expect(names.filter((name) => name !== 'idp_sim_take_fault')).toEqual(['idp_sim_armed_fault_steps', 'idp_sim_memberships_of_users']);
    } finally {
      sent.mockRestore();
    }
  });

  it('an operation at a step no fault is armed at looks at the armed faults only, never matching one', async () => {
    const pool = await nativePool(orm);
    const sent = vi.spyOn(pool, 'query');
    try {
      await idp.ping();
      expect(sent.mock.calls.map(([statement]) => (statement as { name: string }).name)).toEqual(['idp_sim_armed_fault_steps', 'idp_sim_ping']);
    } finally {
      sent.mockRestore();
    }
  });

  it('listTenantUserIds is empty for a tenant without an organization', async () => {
    expect(await idp.listTenantUserIds(randomUUID())).toEqual([]);
  });

  it('membership, invite and claim push for an unknown organization or user are rejected (404)', async () => {
    const tenant = newTenant();
    const { organizationId } = await idp.ensureOrganization(tenant);
    await expect(idp.ensureMembership(organizationId, randomUUID())).rejects.toEqual(idpError('rejected', 404));
    await expect(idp.sendInvite(randomUUID())).rejects.toEqual(idpError('rejected', 404));
    await expect(idp.pushMembership(randomUUID(), tenant.slug, pushed(tenant))).rejects.toEqual(idpError('rejected', 404));
    // Nothing to remove from a user that is not there.
    await expect(idp.pushMembership(randomUUID(), tenant.slug, null)).resolves.toBeUndefined();
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
