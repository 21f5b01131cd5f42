import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type KeycloakAdminClient from '@keycloak/keycloak-admin-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startDemoApp, type RunningDemoApp } from '../../platform/keycloakDemoApp.ts';
import { startBrokeredSignIn } from '../support/brokeredSignIn.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { configureDemoAppMapper } from '../support/demoAppMapper.ts';
import { startDnsServer, type DnsServer } from '../support/dnsServer.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { launchTestBrowser, type TestBrowser } from '../support/keycloakBrowser.ts';
import { keycloakContext, keycloakSettings } from '../support/keycloakContext.ts';
import { startSamlCraftingIdp, type CraftedAnswer, type SamlCraftingIdp } from '../support/samlCraftingIdp.ts';
import {
  assertionXml,
  idOf,
  responseXml,
  samlId,
  SHA1,
  signElement,
  splitSignature,
  type AssertionFields,
  type AuthnRequestSeen,
  type SignatureAlgorithms,
} from '../support/samlMessages.ts';
import { selfSignedCertificate, type SigningKey } from '../support/selfSignedCertificate.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * SPEC-EXTENSIONS §14's hostile corpus against the running stack: a tenant's SAML connection to an IdP on loopback
 * that answers each of Keycloak's AuthnRequests with a crafted response, signed by xml-crypto with the metadata's
 * key (or another, as the case wants). A well-formed response signs its user in, so the harness itself is shown to
 * work; every crafted one is refused: the browser lands on an error page, no account is made or linked, no member,
 * and Keycloak records an error event of the expected kind.
 */
const screenshots = resolve(import.meta.dirname, '../../.data/test/screenshots');

let dns: DnsServer;
let stack: ActorStack;
let demoApp: RunningDemoApp;
let browser: TestBrowser;
let idp: SamlCraftingIdp;
let trusted: SigningKey;
let untrusted: SigningKey;
let tenant: { id: string; slug: string; domain: string };
let other: { id: string; slug: string; domain: string };
let connection: { id: string; idp_alias: string; sp: { entity_id: string; acs_url: string } };

async function tenantWithDomain(prefix: string): Promise<{ id: string; slug: string; domain: string }> {
  const slug = uniqueSlug(prefix);
  const created = (await stack.service.request('POST', '/v1/tenants', { slug, name: `${prefix} ${slug}` })).body.tenant;
  const domain = (await stack.service.request('POST', `/v1/tenants/${created.id}/domains`, { domain: `${slug}.test` })).body;
  await dns.setTxt(domain.verification.name, [domain.verification.value]);
  expect((await stack.service.request('POST', `/v1/domains/${domain.id}/verify`)).body.state).toBe('verified');
  return { id: created.id, slug, domain: `${slug}.test` };
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
  trusted = selfSignedCertificate('hostile-corpus-trusted');
  untrusted = selfSignedCertificate('hostile-corpus-untrusted');
  idp = await startSamlCraftingIdp();

  tenant = await tenantWithDomain('saml-acme');
  other = await tenantWithDomain('saml-victim');
  const res = await stack.service.request('POST', `/v1/tenants/${tenant.id}/sso-connections`, {
    protocol: 'saml',
    metadata_xml: idp.metadata([trusted]),
    domains: [tenant.domain],
  });
  expect(res.status).toBe(201);
  connection = res.body;
  const admin = await keycloakAdmin();
  await eventually(async () => (await admin.identityProviders.findOne({ alias: connection.idp_alias })) ?? undefined, 30_000, 'the SAML identity provider');
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await demoApp?.close();
  await idp?.close();
  await dns?.close();
});

/** The fields of a response to `request` that Keycloak should take, asserting `email`. */
const fieldsFor = (request: AuthnRequestSeen, email: string): AssertionFields => ({
  issuer: idp.entityId,
  email,
  audience: request.spEntityId,
  recipient: request.acsUrl,
  inResponseTo: request.id,
});

function signedAssertion(fields: AssertionFields, key: SigningKey = trusted, algorithms?: SignatureAlgorithms): string {
  const assertion = assertionXml(fields);
  return signElement(assertion, idOf(assertion), key, algorithms);
}

const responseTo = (request: AuthnRequestSeen, content: string, over: Partial<Parameters<typeof responseXml>[0]> = {}): string =>
  responseXml({ issuer: idp.entityId, destination: request.acsUrl, inResponseTo: request.id, content, ...over });

/** `inner` put right after the Issuer of the outermost element of `xml` (where SAML's schema puts a Signature). */
function afterFirstIssuer(xml: string, inner: string): string {
  const end = xml.indexOf('</saml:Issuer>') + '</saml:Issuer>'.length;
  return xml.slice(0, end) + inner + xml.slice(end);
}

/** A response the attacker holds: signed as a whole and in its assertion, for the attacker's own account. */
function heldResponse(request: AuthnRequestSeen, attacker: string): string {
  const response = responseTo(request, signedAssertion(fieldsFor(request, attacker)));
  return signElement(response, idOf(response), trusted);
}

type KeycloakEvent = Awaited<ReturnType<KeycloakAdminClient['realms']['findEvents']>>[number];
type Outcome = { landedAt: string; events: KeycloakEvent[] };

const ERROR_EVENTS = ['IDENTITY_PROVIDER_RESPONSE_ERROR', 'IDENTITY_PROVIDER_LOGIN_ERROR', 'IDENTITY_PROVIDER_FIRST_LOGIN_ERROR', 'IDENTITY_PROVIDER_POST_LOGIN_ERROR', 'LOGIN_ERROR'] as const;

/** Keycloak's error events since `since` (ms), newest first; waited for, as Keycloak may store them after answering. */
async function errorEventsSince(since: number): Promise<KeycloakEvent[]> {
  const admin = await keycloakAdmin();
  return eventually(async () => {
    const events = await admin.realms.findEvents({ realm: keycloakContext().realm, type: [...ERROR_EVENTS], max: 20 });
    const recent = events.filter((event) => (event.time ?? 0) >= since);
    return recent.length > 0 ? recent : undefined;
  }, 20_000, 'a Keycloak error event');
}

const signInThroughConnection = () => startBrokeredSignIn(browser, demoApp.url, connection.idp_alias);

/** The broker endpoint (ACS) of the connection in the run's Keycloak. */
const brokerEndpoint = () => `${keycloakContext().realmUrl}/broker/${connection.idp_alias}/endpoint`;

/**
 * Runs `start` and waits for Keycloak's answer to the response the browser posts to the broker endpoint (or one below
 * it), then for the page it leads to: the page's address.
 */
async function postedAndAnswered(name: string, start: () => Promise<void>): Promise<string> {
  const { page } = browser;
  const answered = page.waitForResponse((response) => response.url().startsWith(brokerEndpoint()) && response.request().method() === 'POST');
  await start();
  await answered;
  await page.waitForURL((url) => url.href.startsWith(keycloakContext().url) || url.href.startsWith(demoApp.url));
  await page.waitForLoadState('load');
  await page.screenshot({ path: resolve(screenshots, `saml-hostile-${name}.png`), fullPage: true });
  return page.url();
}

async function attempt(name: string, crafter: (request: AuthnRequestSeen) => CraftedAnswer): Promise<Outcome> {
  const since = Date.now() - 1000;
  idp.answerWith(crafter);
  const landedAt = await postedAndAnswered(name, signInThroughConnection);
  return { landedAt, events: await errorEventsSince(since) };
}
/** No account with any of these addresses, none linked to the connection, no member of either tenant with them. */
async function nothingMadeFor(...emails: string[]): Promise<void> {
  const admin = await keycloakAdmin();
  for (const email of emails) {
    const users = await admin.users.find({ email, exact: true });
    expect(users, email).toEqual([]);
    for (const t of [tenant, other]) {
      const members = (await stack.service.request('GET', `/v1/tenants/${t.id}/members?limit=500`)).body.items as { email: string }[];
      expect(members.map((m) => m.email)).not.toContain(email);
    }
  }
}

/** Whether the browser was left on Keycloak's own pages (an error page), never back at the demo app with tokens. */
function refusedAtKeycloak(outcome: Outcome): void {
  expect(outcome.landedAt.startsWith(keycloakContext().url)).toBe(true);
  expect(outcome.landedAt.startsWith(demoApp.url)).toBe(false);
}

const address = (local: string) => `${local}@${tenant.domain}`;

describe('the harness', () => {
  it("signs in the user of a well-formed response signed with the metadata's key: Keycloak goes on to the first broker login and links the account", async () => {
    const email = address('pat');
    idp.answerWith((request) => ({ xml: responseTo(request, signedAssertion(fieldsFor(request, email))) }));
    await signInThroughConnection();
    const { page } = browser;
    const next = page.locator('#kc-update-profile-form, #firstName, #access-claims:not(:empty)').or(page.getByText(/verify your email/i)).first();
    await next.waitFor();
    if (await page.locator('#firstName').isVisible()) {
      await page.fill('#firstName', 'Pat');
      await page.fill('#lastName', 'Harness');
      await page.click('[type=submit]');
    }
    await page.screenshot({ path: resolve(screenshots, 'saml-hostile-00-well-formed.png'), fullPage: true });
    const admin = await keycloakAdmin();
    const [user] = await eventually(async () => {
      const users = await admin.users.find({ email, exact: true });
      return users.length > 0 ? users : undefined;
    }, 20_000, 'the account of the well-formed response');
    expect((await admin.users.listFederatedIdentities({ id: user!.id! })).map((link) => link.identityProvider)).toEqual([connection.idp_alias]);
  }, 90_000);
});

/** Keycloak's error event a case is refused with: by its broker itself, or by the extension's check in front of it. */
type ExpectedEvent = { type: (typeof ERROR_EVENTS)[number]; error: string; reason?: string };
const byCheck = (reason: string): ExpectedEvent => ({ type: 'IDENTITY_PROVIDER_RESPONSE_ERROR', error: 'invalid_saml_response', reason });
const byBroker = (error: string, reason?: string): ExpectedEvent => ({ type: 'IDENTITY_PROVIDER_RESPONSE_ERROR', error, ...(reason ? { reason } : {}) });

type HostileCase = {
  name: string;
  /** The addresses the response asserts (the attacker's own and the one it aims at): none may get an account. */
  victims: () => string[];
  craft: (request: AuthnRequestSeen) => CraftedAnswer;
  expected: ExpectedEvent;
};

const minutes = (n: number) => n * 60_000;

/** An unsigned assertion for `victim`, answering `request` in every other respect. */
const forged = (request: AuthnRequestSeen, victim: string) => assertionXml(fieldsFor(request, victim));
/** The attacker's own signed assertion, and its signature and unsigned body apart. */
function held(request: AuthnRequestSeen, attacker: string) {
  const signed = signedAssertion(fieldsFor(request, attacker));
  return { signed, ...splitSignature(signed) };
}
const lastClosing = (xml: string, inner: string) => {
  const at = xml.lastIndexOf('</saml:Assertion>');
  return xml.slice(0, at) + inner + xml.slice(at);
};

const wrapping = (n: number, build: (request: AuthnRequestSeen, attacker: string, victim: string) => string): HostileCase => {
  const attacker = `mallory-xsw${n}`;
  const victim = `ceo-xsw${n}`;
  return {
    name: `XSW${n}`,
    victims: () => [address(attacker), address(victim)],
    craft: (request) => ({ xml: build(request, address(attacker), address(victim)) }),
    expected: byCheck('assertion_count'),
  };
};

const cases: HostileCase[] = [
  {
    name: 'unsigned response and assertion',
    victims: () => [address('unsigned')],
    craft: (request) => ({ xml: responseTo(request, forged(request, address('unsigned'))) }),
    expected: byCheck('assertion_unsigned'),
  },
  {
    name: 'signed response around an unsigned assertion',
    victims: () => [address('unsigned-assertion')],
    craft: (request) => {
      const response = responseTo(request, forged(request, address('unsigned-assertion')));
      return { xml: signElement(response, idOf(response), trusted) };
    },
    expected: byCheck('assertion_unsigned'),
  },
  {
    name: 'assertion signed by a certificate the metadata does not name',
    victims: () => [address('untrusted')],
    craft: (request) => ({ xml: responseTo(request, signedAssertion(fieldsFor(request, address('untrusted')), untrusted)) }),
    expected: byBroker('invalid_signature'),
  },
  {
    name: 'SHA-1 signature',
    victims: () => [address('sha1')],
    craft: (request) => ({ xml: responseTo(request, signedAssertion(fieldsFor(request, address('sha1')), trusted, SHA1)) }),
    expected: byCheck('weak_algorithm'),
  },
  // XSW1-2: the held response's own signature kept, the signed response moved into or beside it, a forged one outside.
  wrapping(1, (request, attacker, victim) => {
    const { signature, without } = splitSignature(heldResponse(request, attacker));
    return afterFirstIssuer(responseTo(request, forged(request, victim)), signature.replace('</ds:Signature>', `${without}</ds:Signature>`));
  }),
  wrapping(2, (request, attacker, victim) => {
    const { signature, without } = splitSignature(heldResponse(request, attacker));
    return afterFirstIssuer(responseTo(request, forged(request, victim)), without + signature);
  }),
  // XSW3-8: the held assertion's signature kept, a forged assertion before, around or carrying it.
  wrapping(3, (request, attacker, victim) => responseTo(request, forged(request, victim) + held(request, attacker).signed)),
  wrapping(4, (request, attacker, victim) => responseTo(request, lastClosing(forged(request, victim), held(request, attacker).signed))),
  wrapping(5, (request, attacker, victim) => {
    const { signature, without } = held(request, attacker);
    return responseTo(request, afterFirstIssuer(forged(request, victim), signature) + without);
  }),
  wrapping(6, (request, attacker, victim) => {
    const { signature, without } = held(request, attacker);
    return responseTo(request, afterFirstIssuer(forged(request, victim), signature.replace('</ds:Signature>', `${without}</ds:Signature>`)));
  }),
  wrapping(7, (request, attacker, victim) => afterFirstIssuer(responseTo(request, forged(request, victim)), `<samlp:Extensions>${held(request, attacker).signed}</samlp:Extensions>`)),
  wrapping(8, (request, attacker, victim) => {
    const { signature, without } = held(request, attacker);
    return responseTo(request, afterFirstIssuer(forged(request, victim), signature.replace('</ds:Signature>', `<ds:Object>${without}</ds:Object></ds:Signature>`)));
  }),
  {
    name: 'Audience of another service provider',
    victims: () => [address('audience')],
    craft: (request) => ({ xml: responseTo(request, signedAssertion({ ...fieldsFor(request, address('audience')), audience: 'https://another-sp.example/saml' })) }),
    expected: byBroker('invalid_saml_response'),
  },
  {
    name: 'Recipient of another service provider',
    victims: () => [address('recipient')],
    craft: (request) => ({ xml: responseTo(request, signedAssertion({ ...fieldsFor(request, address('recipient')), recipient: 'https://another-sp.example/acs' })) }),
    expected: byCheck('recipient'),
  },
  {
    name: 'Destination of another service provider',
    victims: () => [address('destination')],
    craft: (request) => ({ xml: responseTo(request, signedAssertion(fieldsFor(request, address('destination'))), { destination: 'https://another-sp.example/acs' }) }),
    expected: byBroker('invalid_saml_response', 'invalid_destination'),
  },
  {
    name: 'Conditions expired beyond the clock skew',
    victims: () => [address('expired')],
    craft: (request) => ({
      xml: responseTo(request, signedAssertion({ ...fieldsFor(request, address('expired')), notBefore: Date.now() - minutes(20), notOnOrAfter: Date.now() - minutes(10), confirmationNotOnOrAfter: Date.now() + minutes(5) })),
    }),
    expected: byBroker('invalid_saml_response'),
  },
  {
    name: 'bearer confirmation expired beyond the clock skew',
    victims: () => [address('confirmation-expired')],
    craft: (request) => ({ xml: responseTo(request, signedAssertion({ ...fieldsFor(request, address('confirmation-expired')), confirmationNotOnOrAfter: Date.now() - minutes(10) })) }),
    expected: byCheck('subject_confirmation_expired'),
  },
  {
    name: 'NotBefore in the future',
    victims: () => [address('not-yet')],
    craft: (request) => ({ xml: responseTo(request, signedAssertion({ ...fieldsFor(request, address('not-yet')), notBefore: Date.now() + minutes(10), notOnOrAfter: Date.now() + minutes(20) })) }),
    expected: byBroker('invalid_saml_response'),
  },
  {
    name: 'InResponseTo of another request',
    victims: () => [address('in-response-to')],
    craft: (request) => {
      const elsewhere = samlId();
      return { xml: responseTo(request, signedAssertion({ ...fieldsFor(request, address('in-response-to')), inResponseTo: elsewhere }), { inResponseTo: elsewhere }) };
    },
    expected: byBroker('invalid_saml_response'),
  },
  {
    name: 'unsolicited response inside a sign-in Keycloak started (no InResponseTo)',
    victims: () => [address('unsolicited-in-flow')],
    craft: (request) => ({ xml: responseTo(request, signedAssertion({ ...fieldsFor(request, address('unsolicited-in-flow')), inResponseTo: undefined }), { inResponseTo: undefined }) }),
    expected: byBroker('invalid_saml_response'),
  },
  {
    name: 'DOCTYPE with an external entity',
    victims: () => [address('doctype')],
    craft: (request) => ({
      xml: `<?xml version="1.0"?><!DOCTYPE samlp:Response [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${responseTo(request, signedAssertion(fieldsFor(request, address('doctype'))))}`,
    }),
    expected: byCheck('doctype'),
  },
  {
    name: 'comment injected into the NameID',
    victims: () => [address('ceo'), `${address('ceo')}.evil.example`],
    craft: (request) => ({ xml: responseTo(request, signedAssertion({ ...fieldsFor(request, address('ceo')), nameIdXml: `${address('ceo')}<!---->.evil.example` })) }),
    expected: byCheck('comment_or_instruction'),
  },
  {
    name: 'IdP-initiated response to the per-client endpoint',
    victims: () => [address('idp-initiated')],
    craft: (request) => ({ xml: responseTo(request, signedAssertion(fieldsFor(request, address('idp-initiated')))), acsUrl: `${request.acsUrl}/clients/tenant-registry-demo-app` }),
    expected: byCheck('idp_initiated'),
  },
];

describe('the hostile corpus: each crafted response is refused, nothing is made, and Keycloak records why', () => {
  cases.forEach((hostile, index) => {
    it(`refuses: ${hostile.name}`, async () => {
      const name = `${String(index + 1).padStart(2, '0')}-${hostile.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
      const outcome = await attempt(name, hostile.craft);
      refusedAtKeycloak(outcome);
      expect(outcome.events).toContainEqual(expect.objectContaining({
        type: hostile.expected.type,
        error: hostile.expected.error,
        ...(hostile.expected.reason ? { details: expect.objectContaining({ reason: hostile.expected.reason }) } : {}),
      }));
      await nothingMadeFor(...hostile.victims());
    }, 60_000);
  });

  it('refuses the accepted response played again in a new sign-in: no second session for its user', async () => {
    const accepted = Buffer.from(idp.posted[0]!, 'base64').toString('utf8');
    const admin = await keycloakAdmin();
    const [pat] = await admin.users.find({ email: address('pat'), exact: true });
    const sessionsBefore = (await admin.users.listSessions({ id: pat!.id! })).length;
    const outcome = await attempt('replayed', () => ({ xml: accepted }));
    refusedAtKeycloak(outcome);
    expect(outcome.events).toContainEqual(expect.objectContaining({ type: 'IDENTITY_PROVIDER_RESPONSE_ERROR', error: 'invalid_saml_response' }));
    expect((await admin.users.listSessions({ id: pat!.id! })).length).toBe(sessionsBefore);
  }, 60_000);

  it('refuses an unsolicited response posted to the broker without a sign-in Keycloak started', async () => {
    const since = Date.now() - 1000;
    const email = address('unsolicited');
    const acsUrl = brokerEndpoint();
    const request = { id: '', acsUrl, spEntityId: connection.sp.entity_id, relayState: '' };
    const xml = responseTo(request, signedAssertion({ ...fieldsFor(request, email), inResponseTo: undefined }), { inResponseTo: undefined });
    await browser.context.clearCookies();
    const landedAt = await postedAndAnswered('unsolicited', async () => {
      await browser.page.goto(idp.unsolicitedUrl({ xml, acsUrl }));
    });
    const outcome = { landedAt, events: await errorEventsSince(since) };
    refusedAtKeycloak(outcome);
    // No sign-in of Keycloak's own to answer: the broker finds no authentication session for it.
    expect(outcome.events).toContainEqual(expect.objectContaining({ type: 'LOGIN_ERROR', error: 'invalid_saml_response' }));
    await nothingMadeFor(email);
  }, 60_000);

  it("refuses an address outside the connection's verified domains (SPEC-EXTENSIONS §13): the registry's check says why, audited sso.sign_in_refused", async () => {
    const email = `eve@${other.domain}`;
    idp.answerWith((request) => ({ xml: responseTo(request, signedAssertion(fieldsFor(request, email))) }));
    await postedAndAnswered('outside-domains', signInThroughConnection);
    // The broker took the response; the realm's SSO flow asked the registry, which refused the address.
    await browser.page.getByText('cannot sign you in with this e-mail address').waitFor();
    await nothingMadeFor(email);
    const refused = await eventually(async () => {
      const audit = (await stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&limit=500`)).body.items as { action: string; metadata: Record<string, unknown> }[];
      return audit.find((e) => e.action === 'sso.sign_in_refused' && e.metadata.email_domain === other.domain);
    }, 20_000, 'sso.sign_in_refused');
    expect(refused.metadata).toMatchObject({ idp_alias: connection.idp_alias, reason: 'domain_not_of_connection' });
  }, 60_000);
});
