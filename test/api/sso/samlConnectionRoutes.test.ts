import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { startDnsServer, type DnsServer } from '../../support/dnsServer.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { startOidcIssuer } from '../../support/oidcIssuer.ts';
import { idpMetadataXml, selfSignedCertificate, startMetadataServer, type MetadataServer, type TestCertificate } from '../../support/samlIdentityProviderMetadata.ts';

/**
 * SAML connections (SPEC-EXTENSIONS §14) over HTTP: metadata as XML and from a loopback URL, the actors and the
 * simulated provider, a real DNS server for the domains.
 */
let dns: DnsServer;
let metadataServer: MetadataServer;
let stack: ActorStack;
/** The same registry where loopback is not allowed: a metadata URL is held to the issuer address rule. */
let strict: ActorStack;
let a: TestCertificate;
let b: TestCertificate;
beforeAll(async () => {
  a = selfSignedCertificate(90, 'a');
  b = selfSignedCertificate(400, 'b');
  dns = await startDnsServer();
  metadataServer = await startMetadataServer({ xml: idpMetadataXml({ signing: [a] }) });
  const settings = { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 500, SSO_METADATA_TIMEOUT_MS: 1_000 };
  stack = await startActorStack({ settings: { ...settings, SSO_ISSUER_ALLOWED_HOSTS: ['127.0.0.1'] } });
  strict = await startActorStack({ settings });
});
afterAll(async () => {
  await stack?.close();
  await strict?.close();
  await metadataServer?.close();
  await dns?.close();
});

const request = (method: string, path: string, body?: unknown, on = stack) => on.service.request(method, path, body);
const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, values);
const newTenant = async () => (await request('POST', '/v1/tenants', { slug: uniqueSlug('saml'), name: 'SAML' })).body.tenant as { id: string; slug: string };
const eventsOf = async (tenantId: string, prefix: string) =>
  ((await request('GET', `/v1/audit?tenant_id=${tenantId}&limit=500`)).body.items as { action: string; metadata: Record<string, any> }[])
    .filter((e) => e.action.startsWith(prefix))
    .reverse();
const connectionsOf = async (tenantId: string) => Number((await sql('select count(*)::int as n from sso_connections where tenant_id = ?', [tenantId]))[0]!.n);
const simulatedProvider = async (alias: string) => (await sql('select config, enabled from idp_sim_identity_providers where alias = ?', [alias]))[0];

async function verifiedDomain(tenantId: string): Promise<string> {
  const name = `${uniqueSlug('corp')}.test`;
  const domain = (await request('POST', `/v1/tenants/${tenantId}/domains`, { domain: name })).body;
  await dns.setTxt(domain.verification.name, [domain.verification.value]);
  expect((await request('POST', `/v1/domains/${domain.id}/verify`)).body.state).toBe('verified');
  return name;
}
const summary = (c: TestCertificate) => ({ fingerprint_sha256: c.fingerprintSha256, not_after: c.notAfter.toISOString() });

describe('POST /v1/tenants/{id}/sso-connections with protocol saml', () => {
  it('reads a metadata body past BODY_LIMIT_BYTES up to its own limit: a document too long is 400 by the schema, not 413', async () => {
    const tenant = await newTenant();
    for (const length of [70_000, 262_145]) {
      const res = await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { protocol: 'saml', metadata_xml: 'a'.repeat(length) });
      expect(res.status, String(length)).toBe(400);
      expect(res.body.error).toBe('invalid_input');
    }
    expect(await connectionsOf(tenant.id)).toBe(0);
  });

  it('makes a connection from pasted metadata: its IdP, certificates and sp values answered, audited, a SAML identity provider of its organization with its certificates', async () => {
    const tenant = await newTenant();
    const domain = await verifiedDomain(tenant.id);
    const res = await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { protocol: 'saml', metadata_xml: idpMetadataXml({ signing: [a, b] }), domains: [domain] });
    expect(res.status).toBe(201);
    const alias = `sso-${res.body.id}`;
    const broker = new RegExp(`^http://[^/]+/idp-sim/broker/${alias}/endpoint`);
    expect(res.body).toEqual({
      id: expect.any(String),
      tenant_id: tenant.id,
      protocol: 'saml',
      domains: [domain],
      state: 'active',
      idp_alias: alias,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      saml: {
        idp_entity_id: 'https://idp.corp.test/saml',
        sso_url: 'https://idp.corp.test/saml/sso',
        certificates: [summary(a), summary(b)],
        metadata_url: null,
        metadata_refreshed_at: expect.any(String),
        metadata_refresh_error: null,
      },
      sp: { entity_id: expect.stringMatching(broker), acs_url: expect.stringMatching(broker), metadata_url: expect.stringMatching(broker) },
    });
    expect(res.body.sp.acs_url).toMatch(/\/endpoint$/);
    expect(res.body.sp.metadata_url).toMatch(/\/endpoint\/descriptor$/);
    expect(JSON.stringify(res.body)).not.toContain('BEGIN CERTIFICATE');
    expect((await request('GET', `/v1/sso-connections/${res.body.id}`)).body).toEqual(res.body);
    expect((await request('GET', `/v1/tenants/${tenant.id}/sso-connections`)).body).toEqual({ items: [res.body] });
    const [created] = await eventsOf(tenant.id, 'sso.');
    expect(created).toMatchObject({ action: 'sso.connection_created', metadata: { protocol: 'saml', issuer: 'https://idp.corp.test/saml', certificates: [summary(a), summary(b)], domains: [domain], idp_alias: alias } });
    const provider = await eventually(() => simulatedProvider(alias), 10_000, 'the identity provider');
    expect(provider).toMatchObject({
      enabled: true,
      config: {
        protocol: 'saml',
        idpEntityId: 'https://idp.corp.test/saml',
        ssoUrl: 'https://idp.corp.test/saml/sso',
        ssoBinding: 'post',
        domains: [domain],
        serviceProvider: { entityId: res.body.sp.entity_id, acsUrl: res.body.sp.acs_url },
      },
    });
    expect(provider!.config.certificates.map((c: { fingerprintSha256: string; pem: string }) => [c.fingerprintSha256, c.pem.startsWith('-----BEGIN CERTIFICATE-----')])).toEqual([
      [a.fingerprintSha256, true],
      [b.fingerprintSha256, true],
    ]);
  });

  it("answers the service provider's SAML metadata at sp.metadata_url, naming sp.entity_id and sp.acs_url", async () => {
    const tenant = await newTenant();
    const created = (await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { protocol: 'saml', metadata_xml: idpMetadataXml({ signing: [a] }) })).body;
    const path = new URL(created.sp.metadata_url).pathname;
    const descriptor = await eventually(async () => {
      const res = await fetch(`${stack.service.baseUrl}${path}`);
      return res.status === 200 ? res : undefined;
    }, 10_000, 'the SP metadata');
    expect(descriptor.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const document = new DOMParser().parseFromString(await descriptor.text(), 'text/xml');
    const root = document.documentElement!;
    expect(root.getAttribute('entityID')).toBe(created.sp.entity_id);
    const acs = root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:metadata', 'AssertionConsumerService')[0]!;
    expect([acs.getAttribute('Binding'), acs.getAttribute('Location')]).toEqual(['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', created.sp.acs_url]);
    expect((await fetch(`${stack.service.baseUrl}/idp-sim/broker/sso-00000000-0000-4000-8000-000000000000/endpoint/descriptor`)).status).toBe(404);
  });

  it('reads metadata from its URL and keeps the URL; a URL at an address the issuer rule refuses, or that does not answer, is 400 and makes nothing', async () => {
    const tenant = await newTenant();
    const res = await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { protocol: 'saml', metadata_url: metadataServer.url });
    expect(res).toMatchObject({ status: 201, body: { saml: { metadata_url: metadataServer.url, certificates: [summary(a)] } } });
    const other = await newTenant();
    const refused = await request('POST', `/v1/tenants/${other.id}/sso-connections`, { protocol: 'saml', metadata_url: metadataServer.url }, strict);
    expect(refused).toMatchObject({ status: 400, body: { message: expect.stringContaining('metadata_url') } });
    expect(refused.body.message).toContain('SSO_ISSUER_ALLOWED_HOSTS');
    for (const url of ['https://10.0.0.9/metadata', 'https://169.254.169.254/latest/meta-data', 'http://user:pw@127.0.0.1/m']) {
      expect((await request('POST', `/v1/tenants/${other.id}/sso-connections`, { protocol: 'saml', metadata_url: url })).status).toBe(400);
    }
    metadataServer.serve({ status: 503 });
    try {
      expect(await request('POST', `/v1/tenants/${other.id}/sso-connections`, { protocol: 'saml', metadata_url: metadataServer.url })).toMatchObject({ status: 400, body: { message: expect.stringContaining('HTTP 503') } });
    } finally {
      metadataServer.serve({ xml: idpMetadataXml({ signing: [a] }) });
    }
    expect(await connectionsOf(other.id)).toBe(0);
  });

  it('refuses metadata that does not parse, names no signing certificate, or carries a DOCTYPE (400), and makes nothing', async () => {
    const tenant = await newTenant();
    const cases = [
      ['<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"', 'does not parse'],
      [idpMetadataXml(), 'no signing certificate'],
      [idpMetadataXml({ encryption: [a] }), 'no signing certificate'],
      [idpMetadataXml({ signing: [a], prologue: '<!DOCTYPE lolz [<!ENTITY lol "lol">]>\n' }), 'DOCTYPE'],
      [idpMetadataXml({ signing: [a], prologue: '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n' }), 'DOCTYPE'],
    ] as const;
    for (const [metadata_xml, reason] of cases) {
      const res = await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { protocol: 'saml', metadata_xml });
      expect({ reason, status: res.status }).toEqual({ reason, status: 400 });
      expect(res.body.message).toContain(reason);
    }
    for (const body of [{ protocol: 'saml' }, { protocol: 'saml', metadata_xml: idpMetadataXml({ signing: [a] }), metadata_url: metadataServer.url }, { protocol: 'saml', metadata_xml: idpMetadataXml({ signing: [a] }), client_id: 'c' }]) {
      expect((await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, body)).status).toBe(400);
    }
    expect(await connectionsOf(tenant.id)).toBe(0);
    expect(await eventsOf(tenant.id, 'sso.')).toEqual([]);
  });
});

describe('PATCH and DELETE a SAML connection', () => {
  it('new metadata changes its certificates (audited by fingerprint) and its identity provider; an OIDC field is 400; delete removes it', async () => {
    const tenant = await newTenant();
    const created = (await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { protocol: 'saml', metadata_xml: idpMetadataXml({ signing: [a] }) })).body;
    const patched = await request('PATCH', `/v1/sso-connections/${created.id}`, { metadata_xml: idpMetadataXml({ signing: [a, b] }) });
    expect(patched).toMatchObject({ status: 200, body: { saml: { certificates: [summary(a), summary(b)] } } });
    const changed = (await eventsOf(tenant.id, 'sso.connection_changed'))[0]!;
    expect(changed.metadata.changes).toEqual({ certificates: { added: [b.fingerprintSha256], removed: [] } });
    await eventually(async () => (await simulatedProvider(created.idp_alias))?.config.certificates.length === 2, 10_000, 'the new certificate in the identity provider');
    const toUrl = await request('PATCH', `/v1/sso-connections/${created.id}`, { metadata_url: metadataServer.url });
    expect(toUrl).toMatchObject({ status: 200, body: { saml: { metadata_url: metadataServer.url, certificates: [summary(a)] } } });
    expect((await eventsOf(tenant.id, 'sso.connection_changed'))[1]!.metadata.changes).toEqual({
      certificates: { added: [], removed: [b.fingerprintSha256] },
      metadata_url: { old: null, new: metadataServer.url },
    });
    expect((await request('PATCH', `/v1/sso-connections/${created.id}`, { client_secret: 's' })).status).toBe(400);
    expect((await request('PATCH', `/v1/sso-connections/${created.id}`, { metadata_xml: idpMetadataXml() })).status).toBe(400);
    expect((await request('PATCH', `/v1/sso-connections/${created.id}`, { state: 'inactive' })).body.state).toBe('inactive');
    await eventually(async () => (await simulatedProvider(created.idp_alias))?.enabled === false, 10_000, 'the identity provider disabled');
    expect((await request('DELETE', `/v1/sso-connections/${created.id}`)).status).toBe(204);
    expect((await request('GET', `/v1/sso-connections/${created.id}`)).status).toBe(404);
    await eventually(async () => (await simulatedProvider(created.idp_alias)) === undefined, 10_000, 'the identity provider gone');
    const [deleted] = await sql('select protocol, issuer, client_id from deleted_sso_connections where idp_alias = ?', [created.idp_alias]);
    expect(deleted).toEqual({ protocol: 'saml', issuer: 'https://idp.corp.test/saml', client_id: null });
  });

  it("metadata on an OIDC connection is 400, and an OIDC connection's answer carries its redirect URI as sp", async () => {
    const issuer = await startOidcIssuer();
    try {
      const tenant = await newTenant();
      const oidc = await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { issuer: issuer.issuer, client_id: 'c', client_secret: 's' });
      expect(oidc).toMatchObject({ status: 201, body: { protocol: 'oidc', sp: { redirect_uri: expect.stringMatching(new RegExp(`/idp-sim/broker/${oidc.body.idp_alias}/endpoint$`)) } } });
      expect((await request('PATCH', `/v1/sso-connections/${oidc.body.id}`, { metadata_xml: idpMetadataXml({ signing: [a] }) })).status).toBe(400);
      expect((await request('PATCH', `/v1/sso-connections/${oidc.body.id}`, { metadata_url: metadataServer.url })).status).toBe(400);
    } finally {
      await issuer.close();
    }
  });
});
