import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { startBrokeredSignIn } from '../support/brokeredSignIn.ts';
import { actionLinks, capturedMail } from '../support/capturedMail.ts';
import { claimsOf, demoAppTokens } from '../support/demoAppSession.ts';
import { configureDemoAppMapper } from '../support/demoAppMapper.ts';
import { startDnsServer, type DnsServer } from '../support/dnsServer.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { launchTestBrowser, type TestBrowser } from '../support/keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { startSamlCraftingIdp, type SamlCraftingIdp } from '../support/samlCraftingIdp.ts';
import { assertionXml, idOf, responseXml, signElement, type AuthnRequestSeen } from '../support/samlMessages.ts';
import { selfSignedCertificate, type SigningKey } from '../support/selfSignedCertificate.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * SPEC-EXTENSIONS §14's certificate rollover through the running stack: the IdP's metadata names certificate A, then
 * A and B, then B alone, and the IdP moves its signing from A to B in the middle. 100 sign-ins across the changes, each
 * back at the demo app with the tenant's claims: none fails. Once A is gone from the metadata (and the connection's
 * identity provider is synced), a response signed with A is refused.
 */
const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');
const SIGN_INS = 100;

let dns: DnsServer;
let stack: ActorStack;
let demoApp: RunningDemoApp;
let browser: TestBrowser;
let idp: SamlCraftingIdp;
let a: SigningKey;
let b: SigningKey;
let tenant: { id: string; slug: string; domain: string };
let connection: { id: string; idp_alias: string };
let email: string;

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
  a = selfSignedCertificate('rollover-a');
  b = selfSignedCertificate('rollover-b');
  idp = await startSamlCraftingIdp();

  const slug = uniqueSlug('saml-roll');
  const created = (await stack.service.request('POST', '/v1/tenants', { slug, name: `Rollover ${slug}` })).body.tenant;
  const domain = (await stack.service.request('POST', `/v1/tenants/${created.id}/domains`, { domain: `${slug}.test` })).body;
  await dns.setTxt(domain.verification.name, [domain.verification.value]);
  expect((await stack.service.request('POST', `/v1/domains/${domain.id}/verify`)).body.state).toBe('verified');
  tenant = { id: created.id, slug, domain: `${slug}.test` };
  email = `rolling@${tenant.domain}`;
  const res = await stack.service.request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { protocol: 'saml', metadata_xml: idp.metadata([a]), domains: [tenant.domain] });
  expect(res.status).toBe(201);
  connection = res.body;
  await eventually(async () => (await (await keycloakAdmin()).identityProviders.findOne({ alias: connection.idp_alias })) ?? undefined, 30_000, 'the SAML identity provider');
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await demoApp?.close();
  await idp?.close();
  await dns?.close();
});

/** The IdP answers every request for the rollover's user, its assertion signed with `key`. */
function signWith(key: SigningKey): void {
  idp.answerWith((request: AuthnRequestSeen) => {
    const assertion = assertionXml({ issuer: idp.entityId, email, audience: request.spEntityId, recipient: request.acsUrl, inResponseTo: request.id });
    const content = signElement(assertion, idOf(assertion), key);
    return { xml: responseXml({ issuer: idp.entityId, destination: request.acsUrl, inResponseTo: request.id, content }) };
  });
}

/** The metadata changed (as the actor's refresh finds it), and the connection's identity provider synced to it. */
async function publish(keys: SigningKey[]): Promise<void> {
  expect((await stack.service.request('PATCH', `/v1/sso-connections/${connection.id}`, { metadata_xml: idp.metadata(keys) })).status).toBe(200);
  const certificates = keys.map((key) => key.certBase64).join(',');
  await eventually(async () => {
    const provider = await (await keycloakAdmin()).identityProviders.findOne({ alias: connection.idp_alias });
    return provider?.config?.signingCertificate === certificates ? true : undefined;
  }, 30_000, 'the identity provider holding the new certificates');
}

/** One sign-in of the rollover's user through the connection: the demo app's tokens for the tenant, or the error. */
async function signIn(): Promise<string | undefined> {
  await startBrokeredSignIn(browser, demoApp.url, connection.idp_alias);
  try {
    const tokens = await demoAppTokens(browser.page);
    return claimsOf(tokens.access_token).tenant_id === tenant.id ? undefined : 'a token without the tenant';
  } catch (error) {
    return String(error);
  }
}

describe('a certificate rollover, A → A+B → B', () => {
  it('loses none of 100 sign-ins, and refuses A once the metadata no longer names it', async () => {
    const { page } = browser;
    // The user's first sign-in: the profile the assertion does not complete, and the e-mail proven by its link.
    signWith(a);
    await startBrokeredSignIn(browser, demoApp.url, connection.idp_alias);
    await page.locator('#firstName').waitFor();
    await page.fill('#firstName', 'Rolling');
    await page.fill('#lastName', 'Over');
    await page.click('[type=submit]');
    const link = await eventually(async () => (await capturedMail(email)).flatMap(actionLinks).at(-1), 30_000, 'the verification e-mail');
    await page.goto(link);
    const claims = page.locator('#access-claims:not(:empty)');
    const proceed = page.getByRole('link', { name: /proceed/i });
    const back = page.getByRole('link', { name: /back to application/i });
    await claims.or(proceed).or(back).first().waitFor();
    if (await proceed.count()) {
      await proceed.first().click();
      await claims.or(back).first().waitFor();
    }
    // The link may end a flow of its own: the user signs in again, the address now proven.
    if (!(await claims.count())) await startBrokeredSignIn(browser, demoApp.url, connection.idp_alias);
    await demoAppTokens(page);

    const failures: string[] = [];
    const phases: { keys: SigningKey[]; signer: SigningKey; count: number }[] = [
      { keys: [a], signer: a, count: 30 },
      { keys: [a, b], signer: a, count: 20 },
      { keys: [a, b], signer: b, count: 20 },
      { keys: [b], signer: b, count: SIGN_INS - 70 },
    ];
    let made = 0;
    for (const phase of phases) {
      await publish(phase.keys);
      signWith(phase.signer);
      for (let i = 0; i < phase.count; i++) {
        const failure = await signIn();
        made++;
        if (failure) failures.push(`sign-in ${made}: ${failure}`);
      }
    }
    expect(made).toBe(SIGN_INS);
    expect(failures).toEqual([]);

    const since = Date.now() - 1000;
    signWith(a);
    await startBrokeredSignIn(browser, demoApp.url, connection.idp_alias);
    await page.waitForURL((url) => url.pathname.endsWith(`/broker/${connection.idp_alias}/endpoint`));
    await page.screenshot({ path: resolve(screenshots, 'saml-rollover-a-refused.png'), fullPage: true });
    expect(await page.locator('#access-claims:not(:empty)').count()).toBe(0);
    // Keycloak's broker refuses it itself: the signature is checked against the metadata's certificates only.
    await eventually(async () => {
      const found = await (await keycloakAdmin()).realms.findEvents({ realm: keycloakContext().realm, type: ['IDENTITY_PROVIDER_RESPONSE_ERROR'], max: 5 });
      return found.find((event) => event.error === 'invalid_signature' && (event.time ?? 0) >= since);
    }, 20_000, 'the invalid_signature event of the response signed with A');
  }, 900_000);
});
