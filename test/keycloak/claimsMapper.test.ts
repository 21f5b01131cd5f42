import { mkdir } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../api/auth/authConfig.ts';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { DEMO_APP_CLIENT_ID } from '../../platform/keycloakServer.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { claimsOf, demoAppTokens, refresh, signIn as signInTo, TEST_PASSWORD, type Claims, type Tokens } from '../support/demoAppSession.ts';
import { eventually } from '../support/eventually.ts';
import { configureDemoAppMapper } from '../support/demoAppMapper.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { launchTestBrowser, type TestBrowser } from '../support/keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

/**
 * The identity loop against the run's real Keycloak, in a real browser: a tenant's invited admin follows the invite,
 * signs in to the realm's demo app (authorization code + PKCE), and the tokens carry the registry's current claims
 * of the member in the token's tenant through the tenant-registry-claims mapper, with its fallback (the claims pushed
 * into the user) when the registry cannot answer.
 */
const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');

let stack: ActorStack;
let demoApp: RunningDemoApp;
let browser: TestBrowser;
let registryProxy: Awaited<ReturnType<typeof startTcpProxy>>;

beforeAll(async () => {
  demoApp = await startDemoApp({ realmUrl: keycloakContext().realmUrl });
  // As shipped: the invite's link continues into the demo app.
  stack = await startActorStack({
    idp: () => new KeycloakIdentityProvider(keycloakSettings({ inviteClientId: DEMO_APP_CLIENT_ID, inviteRedirectUri: demoApp.url })),
  });
  // The mapper reaches the registry through a proxy the tests can cut: the registry as the mapper sees it, stopped.
  registryProxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(stack.service.baseUrl).port) });
  // A generous budget: the registry's answer on a loaded two-core machine, not the mapper's default, is not in question
  // here. The timeout has a test of its own.
  await configureMapper({ 'registry.url': `http://${registryProxy.address}`, 'timeout.ms': '5000' });
  browser = await launchTestBrowser();
  await mkdir(screenshots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await registryProxy?.close();
  await stack?.close();
  await demoApp?.close();
});

const configureMapper = configureDemoAppMapper;

/** Signs in to the demo app in the test's browser for `organization` (or none). */
const signIn = (email: string, organization = ''): Promise<Tokens> => signInTo(browser.page, demoApp.url, email, organization);

async function createTenant(stem: string) {
  const slug = uniqueSlug(stem);
  const email = `it-admin@${slug}.example`;
  const res = await stack.service.request('POST', '/v1/tenants', { slug, name: `Identity loop ${slug}`, admin_email: email, admin_name: 'Ada Lovelace' });
  expect(res.status).toBe(201);
  return { id: res.body.tenant.id as string, slug, email, inviteUrl: res.body.invite_url as string };
}

const userOf = async (email: string) => {
  const [user] = await (await keycloakAdmin()).users.find({ email, exact: true });
  if (!user?.id) throw new Error(`Keycloak has no user ${email}`);
  return { ...user, id: user.id };
};

const TENANT_CLAIMS = ['tenant_id', 'tenant_slug', 'plan', 'tenant_status', 'products', 'org_roles', 'permissions', 'membership_status', 'claims_source'] as const;
const tenantClaimsOf = (claims: Claims) => Object.fromEntries(TENANT_CLAIMS.filter((name) => name in claims).map((name) => [name, claims[name]]));

/** The built-in IT_ADMIN role's permissions (SPEC-EXTENSIONS §7), as a token lists them: sorted. */
const IT_ADMIN_PERMISSIONS = ['audit:read', 'directory:manage', 'members:manage', 'sso:manage'];

/** The registry's member record of the user in the tenant (its status is what the tokens must say). */
async function memberRecord(tenantId: string, userId: string): Promise<{ status: string; roles: string[]; permissions: string[] }> {
  const res = await stack.service.request('GET', `/v1/tenants/${tenantId}/members/${userId}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** The user's pushed value of tenant_memberships for one tenant (what the fallback reads), parsed. */
async function pushedMembership(userId: string, slug: string): Promise<Claims | undefined> {
  const user = await (await keycloakAdmin()).users.findOne({ id: userId });
  const values = (user?.attributes?.tenant_memberships ?? []) as string[];
  return values.map((value) => JSON.parse(value) as Claims).find((value) => value.tenant_slug === slug);
}

/** The aliases of the organizations Keycloak has the user in. */
async function organizationsOf(userId: string): Promise<string[]> {
  const organizations = await (await keycloakAdmin()).organizations.memberOrganizations({ userId });
  return organizations.map((organization) => organization.alias ?? '').sort();
}

/** A refresh_token grant Keycloak refuses: its OAuth error. */
async function refusedRefresh(tokens: Tokens): Promise<{ error?: string; error_description?: string }> {
  const response = await fetch(`${keycloakContext().realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: DEMO_APP_CLIENT_ID, refresh_token: tokens.refresh_token }),
  });
  expect(response.status).toBe(400);
  return (await response.json()) as { error?: string; error_description?: string };
}

/** Runs `check` with the registry unreachable for the mapper. */
async function withRegistryCut<T>(check: () => Promise<T>): Promise<T> {
  registryProxy.cut();
  try {
    return await check();
  } finally {
    registryProxy.restore();
  }
}

/** The first tenant, its admin signed in to the demo app by the first test; the later tests build on both. */
let tenant: Awaited<ReturnType<typeof createTenant>>;
let tokens: Tokens;

describe('the invited admin signs in to the demo app', () => {
  it('follows the invite in a browser (verify e-mail, set a password) into the demo app, whose tokens carry the registry claims', async () => {
    tenant = await createTenant('loop');
    const { page } = browser;
    await page.goto(tenant.inviteUrl);
    await expect.poll(() => page.textContent('body')).toContain('Perform the following action(s)');
    // The login card only (the theme's background image is most of a full page's bytes).
    await page.screenshot({ path: resolve(screenshots, 'identity-01-invite.png'), clip: { x: 330, y: 225, width: 520, height: 345 } });
    await page.click('text=Click here to proceed');
    // VERIFY_EMAIL is done by following the link itself; UPDATE_PASSWORD asks for the new password.
    await page.fill('#password-new', TEST_PASSWORD);
    await page.fill('#password-confirm', TEST_PASSWORD);
    await page.click('[type=submit]');
    await expect.poll(() => page.textContent('body')).toContain('Your account has been updated');
    await page.click('text=Back to Application');
    await page.waitForURL((url) => url.href.startsWith(demoApp.url));

    tokens = await signIn(tenant.email);
    await page.screenshot({ path: resolve(screenshots, 'identity-02-demo-app.png'), fullPage: true });
    const user = await userOf(tenant.email);
    // Provisioning made the invited admin the tenant's member with role IT_ADMIN: the token says what its record says.
    const member = await memberRecord(tenant.id, user.id);
    expect(member).toMatchObject({ roles: ['IT_ADMIN'], permissions: IT_ADMIN_PERMISSIONS });
    const expected = {
      tenant_id: tenant.id,
      tenant_slug: tenant.slug,
      plan: 'starter',
      tenant_status: 'trial',
      products: [],
      org_roles: ['IT_ADMIN'],
      permissions: IT_ADMIN_PERMISSIONS,
      membership_status: member.status,
      claims_source: 'registry',
    };
    expect(tenantClaimsOf(claimsOf(tokens.access_token))).toEqual(expected);
    expect(tenantClaimsOf(claimsOf(tokens.id_token))).toEqual(expected);
    expect(claimsOf(tokens.access_token)).toMatchObject({ sub: user.id, azp: DEMO_APP_CLIENT_ID });
    expect(user).toMatchObject({ emailVerified: true, requiredActions: [] });
  });

  it('after activation with a new plan, the demo app\'s refreshed token carries the plan and status active', async () => {
    expect((await stack.service.request('POST', `/v1/tenants/${tenant.id}/activate`, { plan: 'growth' })).status).toBe(200);
    expect((await stack.service.request('POST', '/v1/catalog/trial-request', { tenant_id: tenant.id, product: 'analytics' })).status).toBe(201);
    const { page } = browser;
    const before = await page.textContent('#access-claims');
    await page.click('#refresh');
    await expect.poll(() => page.textContent('#access-claims'), { timeout: 30_000 }).not.toBe(before);
    tokens = await demoAppTokens(page);
    await page.screenshot({ path: resolve(screenshots, 'identity-03-refreshed.png'), fullPage: true });
    for (const token of [tokens.access_token, tokens.id_token]) {
      expect(claimsOf(token)).toMatchObject({ tenant_id: tenant.id, plan: 'growth', tenant_status: 'active', products: ['analytics'], claims_source: 'registry' });
    }
  });

  it('with the registry unreachable, a refresh still succeeds and carries the claims pushed for the tenant with claims_source "attributes"', async () => {
    // The pushes into the user's attributes are what the fallback shows; wait until both have landed: the activation's
    // push can land first with no products, the trial request's push after it.
    const user = await userOf(tenant.email);
    await eventually(async () => {
      const pushed = await pushedMembership(user.id, tenant.slug);
      return pushed?.plan === 'growth' && (pushed.products as string[]).includes('analytics') ? true : undefined;
    }, 20_000, 'the pushed plan and product');
    const { status } = await memberRecord(tenant.id, user.id);
    const fallback = await withRegistryCut(() => refresh(tokens));
    for (const token of [fallback.access_token, fallback.id_token]) {
      expect(tenantClaimsOf(claimsOf(token))).toEqual({
        tenant_id: tenant.id,
        tenant_slug: tenant.slug,
        plan: 'growth',
        tenant_status: 'active',
        products: ['analytics'],
        org_roles: ['IT_ADMIN'],
        permissions: IT_ADMIN_PERMISSIONS,
        membership_status: status,
        claims_source: 'attributes',
      });
    }
    expect(claimsOf((await refresh(tokens)).access_token)).toMatchObject({ claims_source: 'registry' });
  });

  it('a registry that does not answer within the timeout costs the refresh about the timeout, never the login', async () => {
    const silent = await startSilentServer();
    await configureMapper({ 'registry.url': `http://${silent.address}`, 'timeout.ms': '1000' });
    try {
      const started = performance.now();
      const fallback = await refresh(tokens);
      const elapsed = performance.now() - started;
      expect(claimsOf(fallback.access_token)).toMatchObject({ tenant_id: tenant.id, plan: 'growth', claims_source: 'attributes' });
      // One budget for access token and ID token together (the answer is shared within the request).
      expect(elapsed).toBeGreaterThanOrEqual(1000);
      expect(elapsed).toBeLessThan(10_000);
    } finally {
      await configureMapper({ 'registry.url': `http://${registryProxy.address}`, 'timeout.ms': '5000' });
      await silent.close();
    }
  });
});

describe('a member of two tenants', () => {
  let other: Awaited<ReturnType<typeof createTenant>>;
  let userId: string;
  /** The tokens of the first sign-in for the other tenant, while the user was an active member there. */
  let forOther: Tokens;
  let forFirst: Tokens;
  beforeAll(async () => {
    other = await createTenant('loop-b');
    userId = (await userOf(tenant.email)).id;
    const res = await stack.service.request('PUT', `/v1/tenants/${other.id}/members/${userId}`, { roles: ['MEMBER'] });
    expect(res.status).toBe(201);
    // The tenant's actor adds the membership in Keycloak after the API answered.
    await eventually(async () => ((await organizationsOf(userId)).includes(other.slug) ? true : undefined), 60_000, 'the membership of the second organization');
  });

  it('gets each tenant\'s claims, with its roles, permissions and membership status there, by asking for organization:<alias>', async () => {
    forOther = await signIn(tenant.email, other.slug);
    expect(claimsOf(forOther.access_token).scope).toContain(`organization:${other.slug}`);
    for (const token of [forOther.access_token, forOther.id_token]) {
      expect(tenantClaimsOf(claimsOf(token))).toEqual({
        tenant_id: other.id,
        tenant_slug: other.slug,
        plan: 'starter',
        tenant_status: 'trial',
        products: [],
        org_roles: ['MEMBER'],
        permissions: [],
        membership_status: 'active',
        claims_source: 'registry',
      });
    }
    forFirst = await signIn(tenant.email, tenant.slug);
    expect(claimsOf(forFirst.access_token)).toMatchObject({
      tenant_id: tenant.id,
      tenant_slug: tenant.slug,
      plan: 'growth',
      tenant_status: 'active',
      org_roles: ['IT_ADMIN'],
      permissions: IT_ADMIN_PERMISSIONS,
      claims_source: 'registry',
    });
    // A refresh keeps the organization the token was asked for.
    expect(claimsOf((await refresh(forOther)).access_token)).toMatchObject({ tenant_id: other.id, org_roles: ['MEMBER'], claims_source: 'registry' });
  });

  it('with the registry unreachable, each organization\'s token falls back to that tenant\'s pushed claims: its own plan, roles and permissions', async () => {
    await eventually(async () => ((await pushedMembership(userId, other.slug))?.membership_status === 'active' ? true : undefined), 30_000, 'the pushed membership');
    const { status } = await memberRecord(tenant.id, userId);
    const [otherFallback, firstFallback] = await withRegistryCut(async () => [await refresh(forOther), await refresh(forFirst)]);
    expect(tenantClaimsOf(claimsOf(otherFallback!.access_token))).toEqual({
      tenant_id: other.id,
      tenant_slug: other.slug,
      plan: 'starter',
      tenant_status: 'trial',
      products: [],
      org_roles: ['MEMBER'],
      permissions: [],
      membership_status: 'active',
      claims_source: 'attributes',
    });
    expect(tenantClaimsOf(claimsOf(firstFallback!.access_token))).toEqual({
      tenant_id: tenant.id,
      tenant_slug: tenant.slug,
      plan: 'growth',
      tenant_status: 'active',
      products: ['analytics'],
      org_roles: ['IT_ADMIN'],
      permissions: IT_ADMIN_PERMISSIONS,
      membership_status: status,
      claims_source: 'attributes',
    });
  });

  it("once deactivated (taken out of the organization), the registry's claims for it say \"inactive\" with no roles, and a sign-in asking for organization:<alias> is refused, from the registry's record and from the pushed one (SPEC-EXTENSIONS §15)", async () => {
    expect((await stack.service.request('POST', `/v1/tenants/${other.id}/members/${userId}/deactivate`)).status).toBe(200);
    await eventually(async () => (!(await organizationsOf(userId)).includes(other.slug) ? true : undefined), 30_000, 'the removal from the organization');
    await eventually(async () => ((await pushedMembership(userId, other.slug))?.membership_status === 'inactive' ? true : undefined), 30_000, 'the pushed inactive membership');
    const asked = await stack.service.request('POST', '/v1/internal/idp/claims', { tenant_slug: other.slug, user_id: userId });
    expect(asked.body).toMatchObject({ tenant_id: other.id, org_roles: [], permissions: [], membership_status: 'inactive' });
    await expect(signIn(tenant.email, other.slug)).rejects.toThrow(/^Keycloak refused: .*deactivated/);
    await expect(withRegistryCut(() => signIn(tenant.email, other.slug))).rejects.toThrow(/^Keycloak refused: .*deactivated/);
    // Keycloak itself refuses to refresh the token granted while a member, before the registry is asked.
    expect(await refusedRefresh(forOther)).toMatchObject({ error: 'invalid_grant', error_description: 'Invalid organization' });
  });

  it('once removed, a sign-in asking for organization:<alias> is refused as not a member, from the registry or from the fallback', async () => {
    expect((await stack.service.request('DELETE', `/v1/tenants/${other.id}/members/${userId}`)).status).toBe(204);
    await eventually(async () => ((await pushedMembership(userId, other.slug)) === undefined ? true : undefined), 30_000, 'the removal of the pushed membership');
    await expect(signIn(tenant.email, other.slug)).rejects.toThrow(/^Keycloak refused: .*not a member/);
    await expect(withRegistryCut(() => signIn(tenant.email, other.slug))).rejects.toThrow(/^Keycloak refused: .*not a member/);
  });
});

describe('a registry with AUTH_ENABLED (the realm as issuer)', () => {
  let secured: TestService;
  beforeAll(async () => {
    secured = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: keycloakContext().realmUrl }) });
    await configureMapper({ 'registry.url': secured.baseUrl });
  });
  afterAll(async () => {
    await configureMapper({ 'registry.url': `http://${registryProxy.address}`, 'client.id': 'tenant-registry-claims-mapper' });
    await secured?.close();
  });

  it('gets the claims with the service token of its client (tenant-registry-claims-mapper)', async () => {
    expect((await secured.request('POST', '/v1/internal/idp/claims', { tenant_id: tenant.id })).status).toBe(401);
    const refreshed = await refresh(tokens);
    for (const token of [refreshed.access_token, refreshed.id_token]) {
      expect(claimsOf(token)).toMatchObject({ tenant_id: tenant.id, plan: 'growth', tenant_status: 'active', claims_source: 'registry' });
    }
  });

  it('without a service client configured it is refused (401) and the token falls back to the attributes', async () => {
    await configureMapper({ 'client.id': '' });
    expect(claimsOf((await refresh(tokens)).access_token)).toMatchObject({ tenant_id: tenant.id, claims_source: 'attributes' });
  });
});

/** A TCP server that accepts connections and never answers: a registry that hangs. */
async function startSilentServer(): Promise<{ address: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolveClose());
      }),
  };
}
