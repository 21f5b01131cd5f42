import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { actionLinks, capturedMail } from '../support/capturedMail.ts';
import { claimsOf, demoAppTokens, refreshAnswer, TEST_PASSWORD, type Tokens } from '../support/demoAppSession.ts';
import { configureDemoAppMapper } from '../support/demoAppMapper.ts';
import { startDnsServer, type DnsServer } from '../support/dnsServer.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { launchTestBrowser, type TestBrowser } from '../support/keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * SPEC-EXTENSIONS §15, `require_sso`, against the run's real Keycloak in a real browser: a second realm plays the
 * tenant's own identity provider (as in singleSignOn.test.ts), its connection made through the registry. With the
 * policy on, a member's password sign-in is refused with a page that says why, and an open password session's refresh
 * within 5 s; a member marked break_glass may still use a password, and the registry audits it.
 */
const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');
const CUSTOMER_REALM = 'customer-idp-sign-in';
const BROKER_CLIENT = 'tenant-registry-broker';
const BROKER_SECRET = 'customer-idp-sign-in-broker-secret';
const PASSWORD = 'Jane-Customer-Password-1';
const IN_FORCE_MS = 5_000;

let dns: DnsServer;
let stack: ActorStack;
let demoApp: RunningDemoApp;
let browser: TestBrowser;
let tenant: { id: string; slug: string; domain: string };

type Member = { userId: string; email: string };

/** An account of the registry's realm with a password, at an address outside the tenant's domain, made a member. */
async function passwordMember(name: string): Promise<Member> {
  const email = `${name}-${tenant.slug}@elsewhere.example`;
  const { id: userId } = await (await keycloakAdmin()).users.create({
    username: email,
    email,
    firstName: name,
    lastName: 'Operator',
    enabled: true,
    emailVerified: true,
    credentials: [{ type: 'password', value: TEST_PASSWORD, temporary: false }],
  });
  expect((await stack.service.request('PUT', `/v1/tenants/${tenant.id}/members/${userId}`, { roles: ['MEMBER'] })).status).toBe(201);
  await eventually(
    async () => (await (await keycloakAdmin()).organizations.memberOrganizations({ userId })).some((organization) => organization.alias === tenant.slug),
    60_000,
    'the organization membership',
  );
  return { userId, email };
}

/** A fresh password sign-in to the demo app for the tenant's organization: its tokens, or the error page's message. */
async function passwordSignIn(member: Member, screenshot: string): Promise<{ tokens: Tokens } | { refused: string }> {
  const { page } = browser;
  await browser.context.clearCookies();
  await page.goto(demoApp.url);
  await page.evaluate(() => sessionStorage.removeItem('tokens'));
  await page.reload();
  await page.fill('#organization', tenant.slug);
  await page.click('#sign-in');
  await page.locator('#username').waitFor();
  await page.fill('#username', member.email);
  await page.click('[type=submit]');
  await page.locator('#password').waitFor();
  await page.fill('#password', TEST_PASSWORD);
  await page.click('[type=submit]');
  await page.locator('#access-claims:not(:empty), #status:text-matches("^Error"), #kc-error-message').first().waitFor();
  await page.screenshot({ path: resolve(screenshots, screenshot), fullPage: true });
  if (await page.locator('#kc-error-message').isVisible()) return { refused: (await page.textContent('#kc-error-message'))!.trim() };
  return { tokens: await demoAppTokens(page) };
}

/**
 * Jane's sign-in at the demo app through the tenant's connection: she types her address, the organization's domain
 * sends her to the customer's realm, and back, Keycloak may ask her to review her profile and to prove her address by
 * its e-mail (the connection trusts no address), whose link may end a flow of its own: then she signs in once more.
 * Its tokens, or the error page's message.
 */
async function ssoSignIn(email: string, screenshot: string): Promise<{ tokens: Tokens } | { refused: string }> {
  const { page } = browser;
  const throughCustomer = async () => {
    await browser.context.clearCookies();
    await page.goto(demoApp.url);
    await page.evaluate(() => sessionStorage.removeItem('tokens'));
    await page.reload();
    await page.fill('#organization', '');
    await page.click('#sign-in');
    await page.locator('#username').waitFor();
    await page.fill('#username', email);
    await page.click('[type=submit]');
    await page.waitForURL((url) => url.pathname.includes(`/realms/${CUSTOMER_REALM}/`), { timeout: 30_000 });
    await page.fill('#username', email);
    await page.fill('#password', PASSWORD);
    await page.click('[type=submit]');
  };
  const claims = page.locator('#access-claims:not(:empty)');
  const refused = page.locator('#kc-error-message');
  const landed = () => claims.or(refused).or(page.locator('#status:text-matches("^Error"), #firstName')).or(page.getByText(VERIFY_ASKED)).first().waitFor({ timeout: 30_000 });
  await throughCustomer();
  await landed();
  if (await page.locator('#firstName').isVisible()) {
    await page.click('[type=submit]');
    await landed();
  }
  if (await page.getByText(VERIFY_ASKED).first().isVisible()) {
    const link = await eventually(async () => (await capturedMail(email)).flatMap(actionLinks).at(-1), 30_000, 'the verification e-mail');
    await page.goto(link);
    const proceed = page.getByRole('link', { name: /proceed/i });
    const back = page.getByRole('link', { name: /back to application/i });
    await claims.or(refused).or(proceed).or(back).first().waitFor({ timeout: 30_000 });
    if (await proceed.count()) {
      await proceed.first().click();
      await claims.or(refused).or(back).first().waitFor({ timeout: 30_000 });
    }
    await page.screenshot({ path: resolve(screenshots, screenshot.replace(/\.png$/, '-verified.png')), fullPage: true });
    if (await refused.isVisible()) return { refused: (await refused.textContent())!.trim() };
    if (await back.count()) {
      await throughCustomer();
      await landed();
    }
  }
  await page.screenshot({ path: resolve(screenshots, screenshot), fullPage: true });
  if (await refused.isVisible()) return { refused: (await refused.textContent())!.trim() };
  return { tokens: await demoAppTokens(page) };
}

const VERIFY_ASKED = /verify your email/i;

const auditOf = async (tenantId: string) =>
  (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&limit=500`)).body.items as { action: string; metadata: Record<string, unknown> }[];

beforeAll(async () => {
  dns = await startDnsServer();
  demoApp = await startDemoApp({ realmUrl: keycloakContext().realmUrl });
  stack = await startActorStack({
    settings: { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 500, SSO_ISSUER_ALLOWED_HOSTS: ['127.0.0.1'] },
    idp: () => new KeycloakIdentityProvider(keycloakSettings()),
  });
  await configureDemoAppMapper({ 'registry.url': stack.service.baseUrl, 'timeout.ms': '5000' });
  browser = await launchTestBrowser();
  await mkdir(screenshots, { recursive: true });

  const slug = uniqueSlug('sso-only');
  const created = (await stack.service.request('POST', '/v1/tenants', { slug, name: `SSO only ${slug}` })).body.tenant;
  const domain = (await stack.service.request('POST', `/v1/tenants/${created.id}/domains`, { domain: `${slug}.test` })).body;
  await dns.setTxt(domain.verification.name, [domain.verification.value]);
  expect((await stack.service.request('POST', `/v1/domains/${domain.id}/verify`)).body.state).toBe('verified');
  tenant = { id: created.id, slug, domain: `${slug}.test` };

  // The customer's own identity provider: a realm with a confidential client to broker through, and Jane.
  const admin = await keycloakAdmin();
  const { url, realm } = keycloakContext();
  if (!(await admin.realms.findOne({ realm: CUSTOMER_REALM }))) {
    await admin.realms.create({ realm: CUSTOMER_REALM, enabled: true });
    await admin.clients.create({
      realm: CUSTOMER_REALM,
      clientId: BROKER_CLIENT,
      secret: BROKER_SECRET,
      publicClient: false,
      standardFlowEnabled: true,
      redirectUris: [`${url}/realms/${realm}/broker/*`],
    });
  }
  await admin.users.create({
    realm: CUSTOMER_REALM,
    username: `jane@${tenant.domain}`,
    email: `jane@${tenant.domain}`,
    emailVerified: true,
    firstName: 'Jane',
    lastName: 'Acme',
    enabled: true,
    credentials: [{ type: 'password', value: PASSWORD, temporary: false }],
  });
  const connection = await stack.service.request('POST', `/v1/tenants/${tenant.id}/sso-connections`, {
    issuer: `${url}/realms/${CUSTOMER_REALM}`,
    client_id: BROKER_CLIENT,
    client_secret: BROKER_SECRET,
    domains: [tenant.domain],
  });
  expect(connection.status).toBe(201);
  await eventually(async () => (await admin.identityProviders.findOne({ alias: connection.body.idp_alias })) ?? undefined, 20_000, 'the identity provider');
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await demoApp?.close();
  await dns?.close();
});

describe('a tenant that requires its own single sign-on', () => {
  let operator: Member;
  let openSession: Tokens;

  it("refuses a member's password sign-in with a page that says why, and an open password session's refresh within 5 s", async () => {
    operator = await passwordMember('pat');
    const before = await passwordSignIn(operator, 'sign-in-sso-01-password-before.png');
    if (!('tokens' in before)) throw new Error(`the password sign-in before the policy was refused: ${before.refused}`);
    openSession = before.tokens;
    const policy = await stack.service.request('PATCH', `/v1/tenants/${tenant.id}`, { settings: { sign_in: { require_sso: true } } });
    expect(policy.status).toBe(200);
    const refused = await eventually(async () => {
      const attempt = await refreshAnswer(openSession);
      return attempt.status === 200 ? undefined : attempt;
    }, IN_FORCE_MS, 'the refused refresh');
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'sso_required' } });
    expect(await passwordSignIn(operator, 'sign-in-sso-02-password-refused.png')).toEqual({ refused: expect.stringMatching(/single sign-on/) });
  }, 180_000);

  it('lets a break_glass member sign in with a password, and the registry audits member.break_glass_used', async () => {
    const marked = await stack.service.request('PUT', `/v1/tenants/${tenant.id}/members/${operator.userId}/break-glass`, { break_glass: true });
    expect(marked).toMatchObject({ status: 200, body: { break_glass: true } });
    const outcome = await passwordSignIn(operator, 'sign-in-sso-03-break-glass.png');
    expect(outcome).toMatchObject({ tokens: expect.anything() });
    if ('tokens' in outcome) expect(claimsOf(outcome.tokens.access_token)).toMatchObject({ tenant_id: tenant.id, claims_source: 'registry' });
    await eventually(
      async () => (await auditOf(tenant.id)).some((event) => event.action === 'member.break_glass_used' && event.metadata.user_id === operator.userId),
      20_000,
      'member.break_glass_used',
    );
  }, 180_000);

  it("lets a user of the tenant's own identity provider sign in through its connection, and refresh: the registry's record of her sign-in says it was the tenant's SSO", async () => {
    const email = `jane@${tenant.domain}`;
    const first = await ssoSignIn(email, 'sign-in-sso-04-through-sso.png');
    if (!('tokens' in first)) throw new Error(`the sign-in through the tenant's SSO was refused: ${first.refused}`);
    const user = (await (await keycloakAdmin()).users.find({ email, exact: true }))[0]!;
    await eventually(
      async () => (await stack.service.request('GET', `/v1/tenants/${tenant.id}/members/${user.id}`)).body.status === 'active',
      30_000,
      'her active membership',
    );
    // A member now, the registry judges her refresh, and her next sign-in, by the policy.
    const refreshed = await refreshAnswer(first.tokens);
    expect(refreshed.status).toBe(200);
    expect(claimsOf(refreshed.body.access_token)).toMatchObject({ tenant_id: tenant.id, claims_source: 'registry' });
    const again = await ssoSignIn(email, 'sign-in-sso-05-through-sso-again.png');
    expect(again).toMatchObject({ tokens: expect.anything() });
    if ('tokens' in again) expect(claimsOf(again.tokens.access_token)).toMatchObject({ tenant_id: tenant.id, membership_status: 'active', claims_source: 'registry' });
  }, 180_000);
});
