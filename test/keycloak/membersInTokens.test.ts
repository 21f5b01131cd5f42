import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { DEMO_APP_CLIENT_ID } from '../../platform/keycloakServer.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { claimsOf, refresh, signIn, TEST_PASSWORD, type Claims, type Tokens } from '../support/demoAppSession.ts';
import { eventually } from '../support/eventually.ts';
import { configureDemoAppMapper } from '../support/demoAppMapper.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { launchTestBrowser, type TestBrowser } from '../support/keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * SPEC-EXTENSIONS §7 against the run's real Keycloak, in a real browser: one person who is a member of three tenants
 * with a different role in each signs in to the demo app for each organization, and each token carries only that
 * tenant's roles and permissions, as the registry's member records say, through role changes, deactivation, removal
 * and the registry being unreachable; a tenant whose invitation it has not accepted yet grants it nothing.
 */
const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');

let stack: ActorStack;
let demoApp: RunningDemoApp;
let browser: TestBrowser;
let registryProxy: Awaited<ReturnType<typeof startTcpProxy>>;

interface TenantUnderTest {
  id: string;
  slug: string;
  role: string;
  permissions: string[];
  tokens?: Tokens;
}
let tenants: TenantUnderTest[];
let colleague: { id: string; email: string };

/** Points the demo app's tenant-registry-claims mapper at the registry through the proxy the tests can cut. */
const mapperThroughProxy = () => configureDemoAppMapper({ 'registry.url': `http://${registryProxy.address}`, 'timeout.ms': '5000' });

async function createTenant(stem: string): Promise<{ id: string; slug: string }> {
  const slug = uniqueSlug(stem);
  const res = await stack.service.request('POST', '/v1/tenants', { slug, name: `Members ${slug}`, admin_email: `it-admin@${slug}.example`, admin_name: 'Grace Hopper' });
  expect(res.status).toBe(201);
  return { id: res.body.tenant.id as string, slug };
}

/** The organizations Keycloak has the user in, by alias. */
async function organizationsOf(userId: string): Promise<string[]> {
  const organizations = await (await keycloakAdmin()).organizations.memberOrganizations({ userId });
  return organizations.map((organization) => organization.alias ?? '').sort();
}

/** The user's pushed value of tenant_memberships for one tenant. */
async function pushedMembership(userId: string, slug: string): Promise<Claims | undefined> {
  const user = await (await keycloakAdmin()).users.findOne({ id: userId });
  const values = (user?.attributes?.tenant_memberships ?? []) as string[];
  return values.map((value) => JSON.parse(value) as Claims).find((value) => value.tenant_slug === slug);
}

/** Rewrites the user's pushed value for one tenant with `fields`, as another writer of the attribute would. */
async function pushStaleMembership(userId: string, slug: string, fields: Partial<Claims>): Promise<void> {
  const admin = await keycloakAdmin();
  const user = (await admin.users.findOne({ id: userId }))!;
  const values = (user.attributes?.tenant_memberships ?? []) as string[];
  const rewritten = values.map((value) => {
    const pushed = JSON.parse(value) as Claims;
    return pushed.tenant_slug === slug ? JSON.stringify({ ...pushed, ...fields }) : value;
  });
  await admin.users.update({ id: userId }, { ...user, attributes: { ...user.attributes, tenant_memberships: rewritten } });
  expect(await pushedMembership(userId, slug)).toMatchObject(fields);
}

const MEMBER_CLAIMS = ['tenant_id', 'tenant_slug', 'org_roles', 'permissions', 'membership_status', 'claims_source'] as const;
const memberClaimsOf = (jwt: string) => {
  const claims = claimsOf(jwt);
  return Object.fromEntries(MEMBER_CLAIMS.filter((name) => name in claims).map((name) => [name, claims[name]]));
};

beforeAll(async () => {
  demoApp = await startDemoApp({ realmUrl: keycloakContext().realmUrl });
  stack = await startActorStack({
    idp: () => new KeycloakIdentityProvider(keycloakSettings({ inviteClientId: DEMO_APP_CLIENT_ID, inviteRedirectUri: demoApp.url })),
  });
  registryProxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(stack.service.baseUrl).port) });
  await mapperThroughProxy();
  browser = await launchTestBrowser();
  await mkdir(screenshots, { recursive: true });

  // Three tenants, and in each a role of its own with a permission of its own (the first: the built-in IT_ADMIN).
  const run = uniqueSlug('p').replace(/[^a-z0-9]/g, '');
  const [a, b, c] = [await createTenant('people-a'), await createTenant('people-b'), await createTenant('people-c')];
  for (const slug of [`billing${run}:manage`, `reports${run}:read`]) {
    expect((await stack.service.request('POST', '/v1/permissions', { slug })).status).toBe(201);
  }
  const roleOf = async (tenantId: string, slug: string, permission: string) => {
    const res = await stack.service.request('POST', '/v1/roles', { slug, name: slug, tenant_id: tenantId, permissions: [permission] });
    expect(res.status).toBe(201);
  };
  await roleOf(b.id, 'billing', `billing${run}:manage`);
  await roleOf(c.id, 'analyst', `reports${run}:read`);
  tenants = [
    { ...a, role: 'IT_ADMIN', permissions: ['audit:read', 'directory:manage', 'members:manage', 'sso:manage'] },
    { ...b, role: 'billing', permissions: [`billing${run}:manage`] },
    { ...c, role: 'analyst', permissions: [`reports${run}:read`] },
  ];

  // A colleague with an account of the realm (a password, nothing left to do), made a member of all three.
  const email = `colleague-${run}@people.example`;
  const admin = await keycloakAdmin();
  const { id } = await admin.users.create({
    username: email,
    email,
    firstName: 'Katherine',
    lastName: 'Johnson',
    enabled: true,
    emailVerified: true,
    credentials: [{ type: 'password', value: TEST_PASSWORD, temporary: false }],
  });
  colleague = { id, email };
  for (const tenant of tenants) {
    const res = await stack.service.request('PUT', `/v1/tenants/${tenant.id}/members/${id}`, { roles: [tenant.role] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user_id: id, email, roles: [tenant.role], status: 'active', source: 'registry' });
  }
  // The tenant actors add the memberships in Keycloak (durable steps after the API answered).
  const aliases = tenants.map((t) => t.slug).sort();
  await eventually(async () => (JSON.stringify(await organizationsOf(id)) === JSON.stringify(aliases) ? true : undefined), 60_000, 'the three organization memberships');
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await registryProxy?.close();
  await stack?.close();
  await demoApp?.close();
});

describe('a member of three tenants with three roles', () => {
  it('signs in with organization:<alias> three times and each token carries only that tenant\'s org_roles and permissions', async () => {
    for (const [index, tenant] of tenants.entries()) {
      tenant.tokens = await signIn(browser.page, demoApp.url, colleague.email, tenant.slug);
      await browser.page.screenshot({ path: resolve(screenshots, `members-0${index + 1}-${tenant.role}.png`), fullPage: true });
      for (const token of [tenant.tokens.access_token, tenant.tokens.id_token]) {
        expect(memberClaimsOf(token)).toEqual({
          tenant_id: tenant.id,
          tenant_slug: tenant.slug,
          org_roles: [tenant.role],
          permissions: tenant.permissions,
          membership_status: 'active',
          claims_source: 'registry',
        });
      }
    }
  });

  it('after a role change, the next refresh carries the new roles', async () => {
    const b = tenants[1]!;
    const res = await stack.service.request('PUT', `/v1/tenants/${b.id}/members/${colleague.id}`, { roles: ['billing', 'MEMBER'] });
    expect(res.status).toBe(200);
    b.tokens = await refresh(b.tokens!);
    expect(memberClaimsOf(b.tokens.access_token)).toMatchObject({ tenant_id: b.id, org_roles: ['MEMBER', 'billing'], permissions: b.permissions, membership_status: 'active' });
  });

  it('with the registry stopped, each organization\'s token falls back to that tenant\'s pushed roles', async () => {
    const [a, b] = [tenants[0]!, tenants[1]!];
    await eventually(async () => {
      const pushed = await pushedMembership(colleague.id, b.slug);
      return JSON.stringify(pushed?.org_roles) === JSON.stringify(['MEMBER', 'billing']) ? true : undefined;
    }, 30_000, 'the pushed role change');
    registryProxy.cut();
    try {
      const forA = await refresh(a.tokens!);
      const forB = await refresh(b.tokens!);
      expect(memberClaimsOf(forA.access_token)).toEqual({
        tenant_id: a.id,
        tenant_slug: a.slug,
        org_roles: ['IT_ADMIN'],
        permissions: a.permissions,
        membership_status: 'active',
        claims_source: 'attributes',
      });
      expect(memberClaimsOf(forB.access_token)).toMatchObject({ tenant_id: b.id, org_roles: ['MEMBER', 'billing'], permissions: b.permissions, claims_source: 'attributes' });
    } finally {
      registryProxy.restore();
    }
  });

  it("after deactivation, the registry's claims for that tenant say \"inactive\" with no roles, and Keycloak refuses its refresh and sign-in (SPEC-EXTENSIONS §15)", async () => {
    const c = tenants[2]!;
    const res = await stack.service.request('POST', `/v1/tenants/${c.id}/members/${colleague.id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'inactive', roles: ['analyst'] });
    const claims = await stack.service.request('POST', '/v1/internal/idp/claims', { tenant_id: c.id, user_id: colleague.id });
    expect(claims.body).toMatchObject({ tenant_id: c.id, org_roles: [], permissions: [], membership_status: 'inactive' });
    // Refused by the registry's decision, or, once the actor took the member out of the organization, by Keycloak
    // itself ("Invalid organization"): either way no new token for that tenant.
    await expect(refresh(c.tokens!)).rejects.toThrow(/^refresh answered 400 invalid_(request|grant)/);
    await eventually(async () => (!(await organizationsOf(colleague.id)).includes(c.slug) ? true : undefined), 30_000, 'the removal from the organization');
    await expect(signIn(browser.page, demoApp.url, colleague.email, c.slug)).rejects.toThrow(/^Keycloak refused: .*deactivated/);
    await browser.page.screenshot({ path: resolve(screenshots, 'members-04-deactivated.png'), fullPage: true });
  });

  it('a user removed from a tenant is refused a sign-in for it and keeps no claims of it', async () => {
    const b = tenants[1]!;
    expect((await stack.service.request('DELETE', `/v1/tenants/${b.id}/members/${colleague.id}`)).status).toBe(204);
    await eventually(async () => (!(await organizationsOf(colleague.id)).includes(b.slug) ? true : undefined), 30_000, 'the removal from the organization');
    await expect(signIn(browser.page, demoApp.url, colleague.email, b.slug)).rejects.toThrow(/^Keycloak refused: .*not a member/);
    await browser.page.screenshot({ path: resolve(screenshots, 'members-05-removed.png'), fullPage: true });
    expect(await pushedMembership(colleague.id, b.slug)).toBeUndefined();
  });

  it("invited to a fourth tenant and not yet accepted, its token for it is pending with no roles or permissions, from the registry, the pushed attributes, and attributes an older registry pushed with roles", async () => {
    const d = await createTenant('people-d');
    const invited = await stack.service.request('POST', `/v1/tenants/${d.id}/invitations`, { email: colleague.email, roles: ['IT_ADMIN'], send_email: false });
    expect(invited.status).toBe(201);
    // The invitation's steps put the account in the organization and push its pending membership before the link.
    await eventually(async () => ((await organizationsOf(colleague.id)).includes(d.slug) ? true : undefined), 60_000, 'the organization membership');
    await eventually(async () => ((await pushedMembership(colleague.id, d.slug))?.membership_status === 'pending' ? true : undefined), 30_000, 'the pushed pending membership');
    // The worker wrote the pending member, and this test's service hears no change notifications: its cache may hold
    // the user's earlier grants until they expire (CACHE_TTL_SECONDS).
    const asked = async () => (await stack.service.request('POST', '/v1/internal/idp/claims', { tenant_id: d.id, user_id: colleague.id })).body;
    await eventually(async () => ((await asked()).membership_status === 'pending' ? true : undefined), 45_000, "the registry's pending member");
    const pending = { tenant_id: d.id, tenant_slug: d.slug, org_roles: [], permissions: [], membership_status: 'pending' };

    const signedIn = await signIn(browser.page, demoApp.url, colleague.email, d.slug);
    await browser.page.screenshot({ path: resolve(screenshots, 'members-06-pending.png'), fullPage: true });
    for (const token of [signedIn.access_token, signedIn.id_token]) expect(memberClaimsOf(token)).toEqual({ ...pending, claims_source: 'registry' });
    expect(await pushedMembership(colleague.id, d.slug)).toMatchObject({ org_roles: [], permissions: [] });

    registryProxy.cut();
    try {
      expect(memberClaimsOf((await refresh(signedIn)).access_token)).toEqual({ ...pending, claims_source: 'attributes' });
      // A pending value that carries the invitation's roles (as registries before this rule pushed them) grants nothing either.
      await pushStaleMembership(colleague.id, d.slug, { org_roles: ['IT_ADMIN'], permissions: tenants[0]!.permissions });
      expect(memberClaimsOf((await refresh(signedIn)).access_token)).toEqual({ ...pending, claims_source: 'attributes' });
    } finally {
      registryProxy.restore();
    }
  }, 180_000);
});
