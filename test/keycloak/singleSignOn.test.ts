import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { claimsOf, demoAppTokens } from '../support/demoAppSession.ts';
import { configureDemoAppMapper } from '../support/demoAppMapper.ts';
import { startDnsServer, type DnsServer } from '../support/dnsServer.ts';
import { proveEmailIfAsked } from '../support/emailProof.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { launchTestBrowser, type TestBrowser } from '../support/keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * SPEC-EXTENSIONS §9 against the run's real Keycloak, in a real browser: a second realm, `customer-idp`, plays Acme's
 * own OIDC provider. The tenant verifies its domain at a real DNS server on loopback and connects it; a user of that
 * realm who types her address at the demo app's login is sent there, signs in, comes back, and her first token
 * carries the tenant's claims with its default role; the registry lists her as a member with source sso.
 * SPEC-EXTENSIONS §13: the same provider asserting an address at another tenant's verified domain is refused, and the
 * check knows which identity providers are tenants' connections by the registry's record, whatever their alias.
 */
const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');
const CUSTOMER_REALM = 'customer-idp';
const BROKER_CLIENT = 'tenant-registry-broker';
const BROKER_SECRET = 'customer-idp-broker-secret';
const PASSWORD = 'Jane-Customer-Password-1';

let dns: DnsServer;
let stack: ActorStack;
let demoApp: RunningDemoApp;
let browser: TestBrowser;
let tenant: { id: string; slug: string; domain: string };
/** Another tenant, with a verified domain of its own and no SSO connection. */
let other: { id: string; slug: string; domain: string };
let connection: { id: string; idp_alias: string };

/** A user of the customer's realm, as the customer's administrator (or whoever holds it) may make any. */
async function customerUser(email: string): Promise<void> {
  await (await keycloakAdmin()).users.create({
    realm: CUSTOMER_REALM,
    username: email,
    email,
    emailVerified: true,
    firstName: 'Someone',
    lastName: 'Asserted',
    enabled: true,
    credentials: [{ type: 'password', value: PASSWORD, temporary: false }],
  });
}

/** A tenant with one domain verified at the test's DNS server. */
async function tenantWithDomain(prefix: string): Promise<{ id: string; slug: string; domain: string }> {
  const slug = uniqueSlug(prefix);
  const created = (await stack.service.request('POST', '/v1/tenants', { slug, name: `${prefix} ${slug}` })).body.tenant;
  const domain = (await stack.service.request('POST', `/v1/tenants/${created.id}/domains`, { domain: `${slug}.test` })).body;
  await dns.setTxt(domain.verification.name, [domain.verification.value]);
  expect((await stack.service.request('POST', `/v1/domains/${domain.id}/verify`)).body.state).toBe('verified');
  return { id: created.id, slug, domain: `${slug}.test` };
}

/** The customer's own identity provider: a realm with a confidential client for the registry's realm to broker through, and Jane. */
async function customerRealm(domain: string): Promise<string> {
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
    username: `jane@${domain}`,
    email: `jane@${domain}`,
    emailVerified: true,
    firstName: 'Jane',
    lastName: 'Acme',
    enabled: true,
    credentials: [{ type: 'password', value: PASSWORD, temporary: false }],
  });
  return `${url}/realms/${CUSTOMER_REALM}`;
}

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

  tenant = await tenantWithDomain('acme');
  other = await tenantWithDomain('victim');
  const issuer = await customerRealm(tenant.domain);
  const res = await stack.service.request('POST', `/v1/tenants/${tenant.id}/sso-connections`, {
    issuer,
    client_id: BROKER_CLIENT,
    client_secret: BROKER_SECRET,
    domains: [tenant.domain],
  });
  expect(res.status).toBe(201);
  connection = res.body;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await demoApp?.close();
  await dns?.close();
});

/** Starts the demo app's sign-in, for no organization, in a browser without a session. */
async function startDemoSignIn(): Promise<void> {
  const { page } = browser;
  await browser.context.clearCookies();
  await page.goto(demoApp.url);
  await page.evaluate(() => sessionStorage.removeItem('tokens'));
  await page.reload();
  await page.fill('#organization', '');
  await page.click('#sign-in');
}

/** Starts the demo app's sign-in and types an address at Keycloak's identity-first login page. */
async function typeAddress(email: string): Promise<void> {
  const { page } = browser;
  await startDemoSignIn();
  await page.locator('#username').waitFor();
  await page.fill('#username', email);
  await page.click('[type=submit]');
}

/** Signs in at the customer's provider, reached through the tenant's domain, as `email` (the provider asserts it). */
async function signInAtCustomer(email: string): Promise<void> {
  const { page } = browser;
  await typeAddress(`jane@${tenant.domain}`);
  await page.waitForURL((url) => url.pathname.includes(`/realms/${CUSTOMER_REALM}/`), { timeout: 30_000 });
  await page.fill('#username', email);
  await page.fill('#password', PASSWORD);
  await page.click('[type=submit]');
}

/**
 * An identity provider of the registry's realm, brokering the customer's realm, made by hand (not by the registry) with
 * the realm's SSO broker flows: an operator's broker, or one the registry no longer knows of.
 */
async function brokerOfCustomerRealm(alias: string, trustEmail: boolean): Promise<void> {
  const issuer = `${keycloakContext().url}/realms/${CUSTOMER_REALM}`;
  await (await keycloakAdmin()).identityProviders.create({
    alias,
    providerId: 'oidc',
    enabled: true,
    trustEmail,
    firstBrokerLoginFlowAlias: 'tenant-registry sso first broker login',
    postBrokerLoginFlowAlias: 'tenant-registry sso post broker login',
    config: {
      issuer,
      authorizationUrl: `${issuer}/protocol/openid-connect/auth`,
      tokenUrl: `${issuer}/protocol/openid-connect/token`,
      jwksUrl: `${issuer}/protocol/openid-connect/certs`,
      userInfoUrl: `${issuer}/protocol/openid-connect/userinfo`,
      clientId: BROKER_CLIENT,
      clientSecret: BROKER_SECRET,
      clientAuthMethod: 'client_secret_post',
      validateSignature: 'true',
      useJwksUrl: 'true',
      defaultScope: 'openid email profile',
      syncMode: 'IMPORT',
    },
  });
}

/** Starts the demo app's sign-in and goes straight to the identity provider `alias` (kc_idp_hint), signing in there as `email`. */
async function signInThrough(alias: string, email: string): Promise<void> {
  const { page } = browser;
  await startDemoSignIn();
  await page.waitForURL((url) => url.pathname.endsWith('/protocol/openid-connect/auth'), { timeout: 30_000 });
  const hinted = new URL(page.url());
  hinted.searchParams.set('kc_idp_hint', alias);
  await page.goto(hinted.href);
  await page.waitForURL((url) => url.pathname.includes(`/realms/${CUSTOMER_REALM}/`), { timeout: 30_000 });
  await page.fill('#username', email);
  await page.fill('#password', PASSWORD);
  await page.click('[type=submit]');
}

const auditOf = async (tenantId: string) =>
  (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&limit=500`)).body.items as { action: string; target_id?: string; metadata: Record<string, unknown> }[];

const REFUSED = 'cannot sign you in with this e-mail address';
const UNCHECKED = 'cannot be checked right now';
const VERIFY_ASKED = /verify your email/i;

describe('single sign-on through the tenant\'s own identity provider', () => {
  it('is set up in Keycloak: an identity provider linked to the organization, redirecting the verified domain', async () => {
    const admin = await keycloakAdmin();
    const provider = await eventually(async () => (await admin.identityProviders.findOne({ alias: connection.idp_alias })) ?? undefined, 20_000, 'the identity provider');
    expect(provider).toMatchObject({
      enabled: true,
      trustEmail: false,
      firstBrokerLoginFlowAlias: 'tenant-registry sso first broker login',
      postBrokerLoginFlowAlias: 'tenant-registry sso post broker login',
      config: expect.objectContaining({ 'kc.org.domain': tenant.domain, 'kc.org.broker.redirect.mode.email-matches': 'true' }),
    });
    const [organization] = (await admin.organizations.find({ search: tenant.slug })).filter((o) => o.alias === tenant.slug);
    await eventually(async () => (await admin.organizations.listIdentityProviders({ orgId: organization!.id! })).some((idp) => idp.alias === connection.idp_alias), 20_000, 'linked');
    expect((await admin.organizations.findOne({ id: organization!.id! }))?.domains).toEqual([{ name: tenant.domain, verified: true }]);
  });

  it("sends jane@<domain> to the customer's provider; back, her first token carries the tenant's claims with its default role, and she is a member with source sso", async () => {
    const { page } = browser;
    await typeAddress(`jane@${tenant.domain}`);
    // The customer's own login page, in its realm.
    await page.waitForURL((url) => url.pathname.includes(`/realms/${CUSTOMER_REALM}/`), { timeout: 30_000 });
    // The address typed at the tenant's login came along (login_hint).
    await expect.poll(() => page.inputValue('#username')).toBe(`jane@${tenant.domain}`);
    await page.screenshot({ path: resolve(screenshots, 'sso-01-customer-idp.png') });
    await page.fill('#password', PASSWORD);
    await page.click('[type=submit]');
    // The first broker login may ask to review the profile the customer's provider gave; it is complete, so confirm.
    const landed = page.locator('#access-claims:not(:empty), #status:text-matches("^Error"), #kc-update-profile-form, #firstName').or(page.getByText(VERIFY_ASKED)).first();
    await landed.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      await page.screenshot({ path: resolve(screenshots, 'sso-failed.png'), fullPage: true });
      throw error;
    });
    if (await page.locator('#firstName').isVisible()) await page.click('[type=submit]');
    // The provider's e-mail is not trusted (§13: no tenant marks an address verified): Jane proves it by its link.
    await proveEmailIfAsked(page, `jane@${tenant.domain}`, () => signInAtCustomer(`jane@${tenant.domain}`), (step) =>
      page.screenshot({ path: resolve(screenshots, step === 'asked' ? 'sso-02a-verify-email.png' : 'sso-02b-verified.png'), fullPage: true }),
    );
    const tokens = await demoAppTokens(page);
    await page.screenshot({ path: resolve(screenshots, 'sso-02-demo-app.png'), fullPage: true });
    expect(claimsOf(tokens.access_token)).toMatchObject({
      tenant_id: tenant.id,
      tenant_slug: tenant.slug,
      org_roles: ['MEMBER'],
      membership_status: 'active',
      claims_source: 'registry',
    });
    const user = (await (await keycloakAdmin()).users.find({ email: `jane@${tenant.domain}`, exact: true }))[0]!;
    const member = (await stack.service.request('GET', `/v1/tenants/${tenant.id}/members/${user.id}`)).body;
    expect(member).toMatchObject({ source: 'sso', status: 'active', roles: ['MEMBER'], email: `jane@${tenant.domain}` });
  }, 90_000);

  it('does not redirect a user at a domain no tenant verified: Keycloak asks for a password', async () => {
    const { page } = browser;
    await typeAddress(`bob@unverified-${tenant.slug}.test`);
    await page.locator('#password').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toContain(`/realms/${keycloakContext().realm}/`);
    await page.screenshot({ path: resolve(screenshots, 'sso-03-unverified-domain.png') });
  });

  it("refuses the tenant's provider asserting an address at another tenant's verified domain: an error page, no account, no membership, sso.sign_in_refused in the connection's tenant", async () => {
    const { page } = browser;
    const asserted = `ceo@${other.domain}`;
    await customerUser(asserted);
    await signInAtCustomer(asserted);
    await page.getByText(REFUSED).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: resolve(screenshots, 'sso-04-refused-other-tenants-domain.png'), fullPage: true });
    expect(new URL(page.url()).pathname).toContain(`/realms/${keycloakContext().realm}/`);
    const admin = await keycloakAdmin();
    expect(await admin.users.find({ email: asserted, exact: true })).toEqual([]);
    for (const t of [tenant, other]) {
      const members = (await stack.service.request('GET', `/v1/tenants/${t.id}/members?limit=500`)).body.items as { email: string }[];
      expect(members.map((m) => m.email)).not.toContain(asserted);
    }
    const audit = (await stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&limit=500`)).body.items as { action: string; metadata: Record<string, unknown> }[];
    const refused = audit.filter((e) => e.action === 'sso.sign_in_refused');
    expect(refused).toEqual([expect.objectContaining({ metadata: expect.objectContaining({ idp_alias: connection.idp_alias, email_domain: other.domain, reason: 'domain_not_of_connection' }) })]);
    expect(JSON.stringify(refused)).not.toContain('ceo@');
  }, 90_000);

  it("does not link the tenant's provider to an existing account at another tenant's domain", async () => {
    const { page } = browser;
    const holder = `bob@${other.domain}`;
    const admin = await keycloakAdmin();
    await admin.users.create({ username: holder, email: holder, emailVerified: true, enabled: true, credentials: [{ type: 'password', value: PASSWORD, temporary: false }] });
    const [account] = await admin.users.find({ email: holder, exact: true });
    await customerUser(holder);
    await signInAtCustomer(holder);
    await page.getByText(REFUSED).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: resolve(screenshots, 'sso-05-refused-existing-account.png'), fullPage: true });
    expect(await admin.users.listFederatedIdentities({ id: account!.id! })).toEqual([]);
    expect(await admin.users.find({ email: holder, exact: true })).toHaveLength(1);
    for (const t of [tenant, other]) expect((await stack.service.request('GET', `/v1/tenants/${t.id}/members/${account!.id}`)).status).toBe(404);
  }, 90_000);

  it('refuses a sign-in through the connection while the registry cannot be asked (fail closed): an error page and no account', async () => {
    const { page } = browser;
    const asked = `joe@${tenant.domain}`;
    await customerUser(asked);
    await configureDemoAppMapper({ 'registry.url': 'http://127.0.0.1:9' });
    try {
      await signInAtCustomer(asked);
      await page.getByText(UNCHECKED).waitFor({ timeout: 30_000 });
      await page.screenshot({ path: resolve(screenshots, 'sso-06-registry-unreachable.png'), fullPage: true });
    } finally {
      await configureDemoAppMapper({ 'registry.url': stack.service.baseUrl });
    }
    expect(await (await keycloakAdmin()).users.find({ email: asked, exact: true })).toEqual([]);
  }, 90_000);
});

describe("the e-mail check knows the tenants' connections by the registry's record, not by their alias", () => {
  it("lets a broker of the realm that is no tenant connection sign its user in through the same flows, even one named sso-…: the registry has no say over it", async () => {
    const { page } = browser;
    const alias = `sso-partner-${uniqueSlug('p')}`;
    const email = `pat@partner-${tenant.slug}.test`;
    await brokerOfCustomerRealm(alias, true);
    try {
      await customerUser(email);
      await signInThrough(alias, email);
      const landed = page.locator('#access-claims:not(:empty), #status:text-matches("^Error"), #firstName').or(page.getByText(REFUSED)).or(page.getByText(UNCHECKED)).first();
      await landed.waitFor({ timeout: 30_000 });
      if (await page.locator('#firstName').isVisible()) await page.click('[type=submit]');
      await page.screenshot({ path: resolve(screenshots, 'sso-07-partner-broker.png'), fullPage: true });
      expect(await page.getByText(REFUSED).or(page.getByText(UNCHECKED)).count()).toBe(0);
      const tokens = await demoAppTokens(page);
      expect(claimsOf(tokens.access_token).tenant_id).toBeUndefined();
      const [user] = await (await keycloakAdmin()).users.find({ email, exact: true });
      expect((await (await keycloakAdmin()).users.listFederatedIdentities({ id: user!.id! })).map((link) => link.identityProvider)).toEqual([alias]);
      expect((await auditOf(tenant.id)).filter((e) => e.action === 'sso.sign_in_refused' && e.metadata.idp_alias === alias)).toEqual([]);
    } finally {
      await (await keycloakAdmin()).identityProviders.del({ alias });
    }
  }, 90_000);

  it("refuses a sign-in through the identity provider of a deleted connection that lingers in Keycloak: an error page, no account, sso.sign_in_refused (connection_deleted)", async () => {
    const { page } = browser;
    const gone = await tenantWithDomain('gone');
    const created = await stack.service.request('POST', `/v1/tenants/${gone.id}/sso-connections`, {
      issuer: `${keycloakContext().url}/realms/${CUSTOMER_REALM}`,
      client_id: BROKER_CLIENT,
      client_secret: BROKER_SECRET,
      domains: [gone.domain],
    });
    expect(created.status).toBe(201);
    const alias = created.body.idp_alias as string;
    const admin = await keycloakAdmin();
    await eventually(async () => (await admin.identityProviders.findOne({ alias })) ?? undefined, 20_000, 'the identity provider');
    expect((await stack.service.request('DELETE', `/v1/sso-connections/${created.body.id}`)).status).toBe(204);
    await eventually(async () => ((await admin.identityProviders.findOne({ alias })) ? undefined : true), 20_000, 'the identity provider removed');
    // As if its removal had failed, or had not run yet: the same alias, the same flows.
    await brokerOfCustomerRealm(alias, false);
    try {
      const email = `lee@${gone.domain}`;
      await customerUser(email);
      await signInThrough(alias, email);
      await page.getByText(REFUSED).or(page.getByText(UNCHECKED)).first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: resolve(screenshots, 'sso-08-deleted-connection.png'), fullPage: true });
      expect(await page.textContent('body')).toContain(REFUSED);
      expect(await admin.users.find({ email, exact: true })).toEqual([]);
      expect((await auditOf(gone.id)).filter((e) => e.action === 'sso.sign_in_refused')).toEqual([
        expect.objectContaining({ target_id: created.body.id, metadata: expect.objectContaining({ idp_alias: alias, email_domain: gone.domain, reason: 'connection_deleted' }) }),
      ]);
    } finally {
      await admin.identityProviders.del({ alias });
    }
  }, 90_000);
});
