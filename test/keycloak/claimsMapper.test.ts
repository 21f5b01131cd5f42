import { mkdir } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../api/auth/authConfig.ts';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { DEMO_APP_CLIENT_ID } from '../../platform/keycloakServer.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { launchTestBrowser, type TestBrowser } from '../support/keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

/**
 * The identity loop against the run's real Keycloak, in a real browser: a tenant's invited admin follows the invite,
 * signs in to the realm's demo app (authorization code + PKCE), and the tokens carry the registry's current claims
 * through the tenant-registry-claims mapper, with its fallback when the registry cannot answer.
 */
type Claims = Record<string, unknown>;
type Tokens = { access_token: string; id_token: string; refresh_token: string };

const PASSWORD = 'Correct-horse-battery-9';
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

/** Changes settings of the demo app's tenant-registry-claims mapper through Keycloak's admin API. */
async function configureMapper(changes: Record<string, string>): Promise<void> {
  const admin = await keycloakAdmin();
  const [client] = await admin.clients.find({ clientId: DEMO_APP_CLIENT_ID });
  const mappers = await admin.clients.listProtocolMappers({ id: client!.id! });
  const mapper = mappers.find((m) => m.protocolMapper === 'tenant-registry-claims');
  if (!mapper) throw new Error(`${DEMO_APP_CLIENT_ID} has no tenant-registry-claims mapper`);
  await admin.clients.updateProtocolMapper({ id: client!.id!, mapperId: mapper.id! }, { ...mapper, config: { ...mapper.config, ...changes } });
}

const claimsOf = (jwt: string): Claims => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Claims;

/** A refresh_token grant of the demo app, as its "Refresh token" button sends it. */
async function refresh(tokens: Tokens): Promise<Tokens> {
  const response = await fetch(`${keycloakContext().realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: DEMO_APP_CLIENT_ID, refresh_token: tokens.refresh_token }),
  });
  const body = (await response.json()) as Tokens & { error?: string };
  if (response.status !== 200) throw new Error(`refresh answered ${response.status} ${body.error}`);
  return body;
}

/** The tokens the demo app holds once its page shows a token's claims (or fails with its error). */
async function demoAppTokens(page: Page): Promise<Tokens> {
  await page.locator('#access-claims:not(:empty), #status:text-matches("^Error")').first().waitFor();
  const status = await page.textContent('#status');
  if (status?.startsWith('Error')) throw new Error(`demo app: ${status}`);
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('tokens') ?? 'null') as Tokens);
}

/** Signs in to the demo app for `organization` (or none); Keycloak asks for the password unless the session is open. */
async function signIn(page: Page, email: string, organization = ''): Promise<Tokens> {
  await page.goto(demoApp.url);
  // A fresh start of the page: the claims shown next are those of this sign-in.
  await page.evaluate(() => sessionStorage.removeItem('tokens'));
  await page.reload();
  await page.fill('#organization', organization);
  await page.click('#sign-in');
  // Keycloak's login page, or straight back to the demo app when the browser's session with Keycloak is open.
  const landed = page.locator('#username, #password, #access-claims:not(:empty), #status:text-matches("^Error")').first();
  await landed.waitFor();
  if (await page.locator('#username').isVisible()) {
    // Organizations make Keycloak's login identity-first: the username, then the password.
    await page.fill('#username', email);
    await page.click('[type=submit]');
    await page.locator('#password').waitFor();
  }
  if (await page.locator('#password').isVisible()) {
    await page.fill('#password', PASSWORD);
    await page.click('[type=submit]');
  }
  return demoAppTokens(page);
}

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

const TENANT_CLAIMS = ['tenant_id', 'tenant_slug', 'plan', 'tenant_status', 'products', 'org_roles', 'claims_source'] as const;
const tenantClaimsOf = (claims: Claims) => Object.fromEntries(TENANT_CLAIMS.filter((name) => name in claims).map((name) => [name, claims[name]]));

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
    await page.fill('#password-new', PASSWORD);
    await page.fill('#password-confirm', PASSWORD);
    await page.click('[type=submit]');
    await expect.poll(() => page.textContent('body')).toContain('Your account has been updated');
    await page.click('text=Back to Application');
    await page.waitForURL((url) => url.href.startsWith(demoApp.url));

    tokens = await signIn(page, tenant.email);
    await page.screenshot({ path: resolve(screenshots, 'identity-02-demo-app.png'), fullPage: true });
    const expected = {
      tenant_id: tenant.id,
      tenant_slug: tenant.slug,
      plan: 'starter',
      tenant_status: 'trial',
      products: [],
      org_roles: [],
      claims_source: 'registry',
    };
    expect(tenantClaimsOf(claimsOf(tokens.access_token))).toEqual(expected);
    expect(tenantClaimsOf(claimsOf(tokens.id_token))).toEqual(expected);
    const user = await userOf(tenant.email);
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

  it('with the registry unreachable, a refresh still succeeds and carries the pushed attributes with claims_source "attributes"', async () => {
    // The pushes into the user's attributes are what the fallback shows; wait until both have landed: the activation's
    // push can land first with no products, the trial request's push after it.
    await eventually(async () => {
      const attributes = (await userOf(tenant.email)).attributes;
      return attributes?.plan?.[0] === 'growth' && attributes.products?.includes('analytics') ? true : undefined;
    }, 20_000, 'the pushed plan and product');
    registryProxy.cut();
    try {
      const fallback = await refresh(tokens);
      for (const token of [fallback.access_token, fallback.id_token]) {
        expect(tenantClaimsOf(claimsOf(token))).toEqual({
          tenant_id: tenant.id,
          tenant_slug: tenant.slug,
          plan: 'growth',
          tenant_status: 'active',
          products: ['analytics'],
          org_roles: [],
          claims_source: 'attributes',
        });
      }
    } finally {
      registryProxy.restore();
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

describe('a user in two tenants\' organizations', () => {
  let other: Awaited<ReturnType<typeof createTenant>>;
  beforeAll(async () => {
    other = await createTenant('loop-b');
    const admin = await keycloakAdmin();
    const organization = await eventually(async () => (await admin.organizations.find({ q: `tenant_id:${other.id}`, exact: true }))[0], 30_000, 'the second organization');
    const user = await userOf(tenant.email);
    await admin.organizations.addMember({ orgId: organization.id!, userId: user.id });
  });

  it('gets each tenant\'s claims by asking for organization:<alias>', async () => {
    const forOther = await signIn(browser.page, tenant.email, other.slug);
    expect(claimsOf(forOther.access_token).scope).toContain(`organization:${other.slug}`);
    for (const token of [forOther.access_token, forOther.id_token]) {
      expect(claimsOf(token)).toMatchObject({ tenant_id: other.id, tenant_slug: other.slug, plan: 'starter', tenant_status: 'trial', products: [], claims_source: 'registry' });
    }
    const forFirst = await signIn(browser.page, tenant.email, tenant.slug);
    expect(claimsOf(forFirst.access_token)).toMatchObject({ tenant_id: tenant.id, tenant_slug: tenant.slug, plan: 'growth', tenant_status: 'active', claims_source: 'registry' });
    // A refresh keeps the organization the token was asked for.
    expect(claimsOf((await refresh(forOther)).access_token)).toMatchObject({ tenant_id: other.id, claims_source: 'registry' });
  });

  it('with the registry unreachable, a token for the other organization names that tenant and none of the first one\'s plan or products', async () => {
    const forOther = await signIn(browser.page, tenant.email, other.slug);
    registryProxy.cut();
    try {
      const fallback = await refresh(forOther);
      // The pushed attributes describe the first tenant: projecting them here would hand out another tenant's plan.
      expect(tenantClaimsOf(claimsOf(fallback.access_token))).toEqual({ tenant_id: other.id, tenant_slug: other.slug, claims_source: 'attributes' });
    } finally {
      registryProxy.restore();
    }
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
