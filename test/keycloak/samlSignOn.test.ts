import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { SAML_POLICY, SAML_PROVIDER_ID } from '../../identityProvider/keycloakSamlProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { actionLinks, capturedMail } from '../support/capturedMail.ts';
import { claimsOf, demoAppTokens } from '../support/demoAppSession.ts';
import { configureDemoAppMapper } from '../support/demoAppMapper.ts';
import { startDnsServer, type DnsServer } from '../support/dnsServer.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { launchTestBrowser, type TestBrowser } from '../support/keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * SPEC-EXTENSIONS §14 against the run's real Keycloak, in a real browser: a second realm, `customer-saml-idp`, is
 * Acme's own SAML IdP (Keycloak's SAML implementation, not ours). The tenant connects it by its metadata URL and
 * enters the connection's SP values at that IdP, as a customer's IT admin would; a user of that realm who types her
 * address at the demo app's login is sent there, signs in, comes back through the SAML broker, and her first token
 * carries the tenant's claims; the registry lists her as a member with source sso. The identity provider is secure
 * by default, and a setting changed behind the registry's back is idp.sso_sync_failed and put right by the next sync.
 */
const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');
const CUSTOMER_REALM = 'customer-saml-idp';
const PASSWORD = 'Jane-Saml-Password-1';
const VERIFY_ASKED = /verify your email/i;

let dns: DnsServer;
let stack: ActorStack;
let demoApp: RunningDemoApp;
let browser: TestBrowser;
let tenant: { id: string; slug: string; domain: string };
let connection: { id: string; idp_alias: string; sp: { entity_id: string; acs_url: string; metadata_url: string } };

async function tenantWithDomain(prefix: string): Promise<{ id: string; slug: string; domain: string }> {
  const slug = uniqueSlug(prefix);
  const created = (await stack.service.request('POST', '/v1/tenants', { slug, name: `${prefix} ${slug}` })).body.tenant;
  const domain = (await stack.service.request('POST', `/v1/tenants/${created.id}/domains`, { domain: `${slug}.test` })).body;
  await dns.setTxt(domain.verification.name, [domain.verification.value]);
  expect((await stack.service.request('POST', `/v1/domains/${domain.id}/verify`)).body.state).toBe('verified');
  return { id: created.id, slug, domain: `${slug}.test` };
}

/** The customer's SAML IdP: a realm of the same Keycloak, with Jane. Its metadata is Keycloak's own descriptor. */
async function customerIdp(domain: string): Promise<string> {
  const admin = await keycloakAdmin();
  if (!(await admin.realms.findOne({ realm: CUSTOMER_REALM }))) await admin.realms.create({ realm: CUSTOMER_REALM, enabled: true });
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
  return `${keycloakContext().url}/realms/${CUSTOMER_REALM}/protocol/saml/descriptor`;
}

/** What the customer's IT admin enters at its IdP from the connection's `sp` values: a SAML client for that SP. */
async function enterSpAtCustomerIdp(sp: { entity_id: string; acs_url: string }): Promise<void> {
  const admin = await keycloakAdmin();
  await admin.clients.create({
    realm: CUSTOMER_REALM,
    clientId: sp.entity_id,
    protocol: 'saml',
    enabled: true,
    redirectUris: [sp.acs_url],
    attributes: {
      'saml_assertion_consumer_url_post': sp.acs_url,
      'saml.assertion.signature': 'true',
      'saml.server.signature': 'true',
      'saml.signature.algorithm': 'RSA_SHA256',
      'saml.client.signature': 'false',
      'saml.force.name.id.format': 'true',
      'saml_name_id_format': 'email',
      'saml.authnstatement': 'true',
      'saml.encrypt': 'false',
    },
  });
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

  tenant = await tenantWithDomain('saml-acme');
  const metadataUrl = await customerIdp(tenant.domain);
  const res = await stack.service.request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { protocol: 'saml', metadata_url: metadataUrl, domains: [tenant.domain] });
  expect(res.status).toBe(201);
  connection = res.body;
  await enterSpAtCustomerIdp(connection.sp);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await demoApp?.close();
  await dns?.close();
});

/**
 * Starts the demo app's sign-in, types `email` at Keycloak's identity-first login and, sent on to the customer's IdP,
 * signs in there unless its session is still open.
 */
async function signInAtCustomerIdp(email: string, screenshot?: string): Promise<void> {
  const { page } = browser;
  await page.goto(demoApp.url);
  await page.evaluate(() => sessionStorage.removeItem('tokens'));
  await page.reload();
  await page.fill('#organization', '');
  await page.click('#sign-in');
  await page.locator('#username').waitFor();
  await page.fill('#username', email);
  await page.click('[type=submit]');
  const atCustomer = page.locator('#password');
  const back = page.locator('#access-claims:not(:empty)');
  await atCustomer.or(back).first().waitFor({ timeout: 30_000 });
  if (!(await atCustomer.count())) return;
  expect(new URL(page.url()).pathname).toContain(`/realms/${CUSTOMER_REALM}/`);
  if (screenshot) await page.screenshot({ path: resolve(screenshots, screenshot) });
  if (!(await page.inputValue('#username'))) await page.fill('#username', email);
  await page.fill('#password', PASSWORD);
  await page.click('[type=submit]');
}

const identityProvider = async () => (await (await keycloakAdmin()).identityProviders.findOne({ alias: connection.idp_alias })) ?? undefined;

describe("SAML sign-on through the tenant's own identity provider", () => {
  it('is set up in Keycloak secure by default: the extension\'s SAML broker, signed assertions checked against the metadata\'s certificate, linked to the organization', async () => {
    const provider = await eventually(identityProvider, 30_000, 'the SAML identity provider');
    expect(provider).toMatchObject({
      providerId: SAML_PROVIDER_ID,
      enabled: true,
      trustEmail: false,
      firstBrokerLoginFlowAlias: 'tenant-registry sso first broker login',
      postBrokerLoginFlowAlias: 'tenant-registry sso post broker login',
      config: expect.objectContaining({ ...SAML_POLICY, entityId: connection.sp.entity_id, 'kc.org.domain': tenant.domain }),
    });
    expect(provider.config?.signingCertificate).toMatch(/^MII/);
    const [organization] = (await (await keycloakAdmin()).organizations.find({ search: tenant.slug })).filter((o) => o.alias === tenant.slug);
    await eventually(async () => (await (await keycloakAdmin()).organizations.listIdentityProviders({ orgId: organization!.id! })).some((idp) => idp.alias === connection.idp_alias), 20_000, 'linked');
    // sp.metadata_url is Keycloak's broker descriptor, naming the entity id and ACS URL the customer entered.
    const descriptor = await (await fetch(connection.sp.metadata_url)).text();
    expect(descriptor).toContain(`entityID="${connection.sp.entity_id}"`);
    expect(descriptor).toContain(`Location="${connection.sp.acs_url}"`);
  });

  it("sends jane@<domain> to the customer's SAML IdP; back, her first token carries the tenant's claims, and she is a member with source sso", async () => {
    const { page } = browser;
    const email = `jane@${tenant.domain}`;
    await signInAtCustomerIdp(email, 'saml-01-customer-idp.png');
    const claims = page.locator('#access-claims:not(:empty)');
    const landed = claims.or(page.locator('#firstName')).or(page.getByText(VERIFY_ASKED)).first();
    await landed.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      await page.screenshot({ path: resolve(screenshots, 'saml-failed.png'), fullPage: true });
      throw error;
    });
    if (await page.locator('#firstName').isVisible()) {
      await page.screenshot({ path: resolve(screenshots, 'saml-02-review-profile.png'), fullPage: true });
      if (!(await page.inputValue('#firstName'))) await page.fill('#firstName', 'Jane');
      if (!(await page.inputValue('#lastName'))) await page.fill('#lastName', 'Acme');
      await page.click('[type=submit]');
      await claims.or(page.getByText(VERIFY_ASKED)).first().waitFor({ timeout: 30_000 });
    }
    if (!(await claims.count())) {
      // The assertion's e-mail is not trusted (§13): Jane proves it by the link Keycloak mails her.
      await page.screenshot({ path: resolve(screenshots, 'saml-03-verify-email.png'), fullPage: true });
      const link = await eventually(async () => (await capturedMail(email)).flatMap(actionLinks).at(-1), 30_000, 'the verification e-mail');
      await page.goto(link);
      const proceed = page.getByRole('link', { name: /proceed/i });
      const back = page.getByRole('link', { name: /back to application/i });
      await claims.or(proceed).or(back).first().waitFor({ timeout: 30_000 });
      if (await proceed.count()) {
        await proceed.first().click();
        await claims.or(back).first().waitFor({ timeout: 30_000 });
      }
      if (!(await claims.count())) {
        // The link ended a flow of its own: Jane signs in again, her address now proven.
        await page.screenshot({ path: resolve(screenshots, 'saml-03b-verified.png'), fullPage: true });
        await signInAtCustomerIdp(email);
      }
    }
    const tokens = await demoAppTokens(page);
    await page.screenshot({ path: resolve(screenshots, 'saml-04-demo-app.png'), fullPage: true });
    expect(claimsOf(tokens.access_token)).toMatchObject({ tenant_id: tenant.id, tenant_slug: tenant.slug, org_roles: ['MEMBER'], membership_status: 'active', claims_source: 'registry' });
    const admin = await keycloakAdmin();
    const [user] = await admin.users.find({ email, exact: true });
    expect((await admin.users.listFederatedIdentities({ id: user!.id! })).map((link) => link.identityProvider)).toEqual([connection.idp_alias]);
    const member = (await stack.service.request('GET', `/v1/tenants/${tenant.id}/members/${user!.id}`)).body;
    expect(member).toMatchObject({ source: 'sso', status: 'active', roles: ['MEMBER'], email });
  }, 120_000);

  it('takes a setting changed behind the registry\'s back as idp.sso_sync_failed, and the next sync puts it right', async () => {
    const admin = await keycloakAdmin();
    const before = (await identityProvider())!;
    await admin.identityProviders.update({ alias: connection.idp_alias }, { ...before, config: { ...before.config, validateSignature: 'false', wantAssertionsSigned: 'false' } });
    expect((await identityProvider())?.config).toMatchObject({ validateSignature: 'false' });

    // Any change of the connection syncs its identity provider: here, setting it inactive.
    expect((await stack.service.request('PATCH', `/v1/sso-connections/${connection.id}`, { state: 'inactive' })).status).toBe(200);
    const failure = await eventually(async () => {
      const audit = (await stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&limit=500`)).body.items as { action: string; target_id?: string; metadata: Record<string, unknown> }[];
      return audit.find((e) => e.action === 'idp.sso_sync_failed' && e.target_id === connection.id);
    }, 30_000, 'idp.sso_sync_failed');
    expect(String(failure.metadata.message)).toMatch(/validateSignature/);
    expect(String(failure.metadata.message)).toMatch(/wantAssertionsSigned/);
    await eventually(async () => ((await identityProvider())?.config?.validateSignature === 'true' ? true : undefined), 30_000, 'the setting put back');
    expect(await identityProvider()).toMatchObject({ enabled: false, config: expect.objectContaining(SAML_POLICY) });
    // The sync after it finds nothing changed behind its back: the same failure is not audited again.
    expect((await stack.service.request('PATCH', `/v1/sso-connections/${connection.id}`, { state: 'active' })).status).toBe(200);
    await eventually(async () => ((await identityProvider())?.enabled === true ? true : undefined), 30_000, 'enabled again');
    const audit = (await stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&limit=500`)).body.items as { action: string; target_id?: string }[];
    expect(audit.filter((e) => e.action === 'idp.sso_sync_failed' && e.target_id === connection.id)).toHaveLength(1);
  }, 90_000);
});
