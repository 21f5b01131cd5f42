import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { startDnsServer, type DnsServer } from '../../support/dnsServer.ts';
import { eventually } from '../../support/eventually.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { addSimulatedUser } from '../../support/simulatedUsers.ts';

/** SSO connections against a loopback OIDC issuer, a real DNS server for the domains, the actors and the simulated provider. */
let dns: DnsServer;
let issuer: OidcIssuer;
let stack: ActorStack;
/** The same registry where the issuer's host is not allowed: public addresses only, as by default. */
let strict: ActorStack;
beforeAll(async () => {
  dns = await startDnsServer();
  issuer = await startOidcIssuer();
  const settings = { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 500, SSO_DISCOVERY_TIMEOUT_MS: 1_000 };
  stack = await startActorStack({ settings: { ...settings, SSO_ISSUER_ALLOWED_HOSTS: ['127.0.0.1'] } });
  strict = await startActorStack({ settings });
});
afterAll(async () => {
  await stack?.close();
  await strict?.close();
  await issuer?.close();
  await dns?.close();
});

const request = (method: string, path: string, body?: unknown) => stack.service.request(method, path, body);
const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, values);
const newTenant = async () => (await request('POST', '/v1/tenants', { slug: uniqueSlug('sso'), name: 'SSO' })).body.tenant as { id: string; slug: string };
const eventsOf = async (tenantId: string, prefix: string) =>
  ((await request('GET', `/v1/audit?tenant_id=${tenantId}&limit=500`)).body.items as { action: string; metadata: Record<string, unknown> }[])
    .filter((e) => e.action.startsWith(prefix))
    .reverse();

/** A verified domain of the tenant. */
async function verifiedDomain(tenantId: string): Promise<string> {
  const name = `${uniqueSlug('corp')}.test`;
  const domain = (await request('POST', `/v1/tenants/${tenantId}/domains`, { domain: name })).body;
  await dns.setTxt(domain.verification.name, [domain.verification.value]);
  expect((await request('POST', `/v1/domains/${domain.id}/verify`)).body.state).toBe('verified');
  return name;
}
const simulatedProvider = async (alias: string) => (await sql('select config, enabled from idp_sim_identity_providers where alias = ?', [alias]))[0];

describe('POST /v1/tenants/{id}/sso-connections', () => {
  it("connects a tenant's verified domain to its issuer: 201 without the secret, sealed at rest, audited, an identity provider of its organization", async () => {
    const tenant = await newTenant();
    const domain = await verifiedDomain(tenant.id);
    const res = await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { issuer: issuer.issuer, client_id: 'registry', client_secret: 's3cret-value', domains: [domain.toUpperCase()] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      tenant_id: tenant.id,
      protocol: 'oidc',
      issuer: issuer.issuer,
      client_id: 'registry',
      domains: [domain],
      state: 'active',
      idp_alias: `sso-${res.body.id}`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      sp: { redirect_uri: expect.stringMatching(new RegExp(`^http://[^/]+/idp-sim/broker/sso-${res.body.id}/endpoint$`)) },
    });
    expect(JSON.stringify(res.body)).not.toContain('s3cret');
    const [row] = await sql('select client_secret_sealed from sso_connections where id = ?', [res.body.id]);
    expect(row!.client_secret_sealed).toMatch(/^v1:/);
    expect(row!.client_secret_sealed).not.toContain('s3cret');
    expect((await request('GET', `/v1/tenants/${tenant.id}/sso-connections`)).body).toEqual({ items: [res.body] });
    const [created] = await eventsOf(tenant.id, 'sso.');
    expect(created).toMatchObject({ action: 'sso.connection_created', metadata: { issuer: issuer.issuer, domains: [domain], idp_alias: res.body.idp_alias } });
    expect(JSON.stringify(created)).not.toContain('s3cret');
    const provider = await eventually(() => simulatedProvider(res.body.idp_alias), 10_000, 'the identity provider');
    expect(provider).toMatchObject({ enabled: true, config: { issuer: issuer.issuer, clientId: 'registry', domains: [domain], authorizationUrl: `${issuer.issuer}/protocol/openid-connect/auth` } });
  });

  it('refuses an issuer whose discovery does not answer or is not allowed (400), a domain not verified (409), an unknown tenant (404)', async () => {
    const tenant = await newTenant();
    const domain = await verifiedDomain(tenant.id);
    const create = (body: Record<string, unknown>, on = stack) => on.service.request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { client_id: 'c', client_secret: 's', ...body });
    expect(await create({ issuer: `${issuer.issuer}-nowhere` })).toMatchObject({ status: 400, body: { message: expect.stringContaining('discovery') } });
    expect(await create({ issuer: 'http://127.0.0.1:9/realms/closed' })).toMatchObject({ status: 400 });
    expect(await create({ issuer: issuer.issuer }, strict)).toMatchObject({ status: 400, body: { message: expect.stringContaining('discovery') } });
    expect(await create({ issuer: issuer.issuer, domains: [`other-${domain}`] })).toMatchObject({ status: 409 });
    expect(await create({ issuer: 'not a url' })).toMatchObject({ status: 400 });
    expect((await request('POST', '/v1/tenants/00000000-0000-4000-8000-00000000000b/sso-connections', { issuer: issuer.issuer, client_id: 'c', client_secret: 's' })).status).toBe(404);
  });
});

describe('PATCH and DELETE /v1/sso-connections/{id}', () => {
  it('a new secret, domains and state change the identity provider; an unverified domain is 409; delete removes it', async () => {
    const tenant = await newTenant();
    const [first, second] = [await verifiedDomain(tenant.id), await verifiedDomain(tenant.id)];
    const created = (await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { issuer: issuer.issuer, client_id: 'c', client_secret: 'one', domains: [first] })).body;
    const patched = await request('PATCH', `/v1/sso-connections/${created.id}`, { client_secret: 'two', domains: [second, first], state: 'inactive' });
    expect(patched).toMatchObject({ status: 200, body: { domains: [first, second].sort(), state: 'inactive' } });
    const changed = (await eventsOf(tenant.id, 'sso.connection_changed'))[0]!;
    expect(changed.metadata.changes).toEqual({ domains: { old: [first], new: [first, second].sort() }, state: { old: 'active', new: 'inactive' }, client_secret: 'changed' });
    await eventually(async () => (await simulatedProvider(created.idp_alias))?.enabled === false, 10_000, 'the identity provider disabled');
    expect((await request('PATCH', `/v1/sso-connections/${created.id}`, { domains: [`nope-${first}`] })).status).toBe(409);
    expect((await request('PATCH', `/v1/sso-connections/${created.id}`, { state: 'inactive' })).body.updated_at).toBe(patched.body.updated_at);
    expect((await request('DELETE', `/v1/sso-connections/${created.id}`)).status).toBe(204);
    expect((await request('DELETE', `/v1/sso-connections/${created.id}`)).status).toBe(404);
    await eventually(async () => (await simulatedProvider(created.idp_alias)) === undefined, 10_000, 'the identity provider gone');
    expect((await eventsOf(tenant.id, 'sso.')).map((e) => e.action)).toEqual(['sso.connection_created', 'sso.connection_changed', 'sso.connection_deleted']);
  });
});

describe("an issuer's addresses (SPEC-EXTENSIONS §13)", () => {
  const create = (tenantId: string, body: Record<string, unknown>, on = stack) =>
    on.service.request('POST', `/v1/tenants/${tenantId}/sso-connections`, { client_id: 'c', client_secret: 's', ...body });

  it('refuses a discovery document whose token, JWKS, userinfo, authorization or end-session URL is at a private address or not https (400), and makes nothing', async () => {
    const tenant = await newTenant();
    const cases: Record<string, string>[] = [
      { token_endpoint: 'http://10.0.0.7/token' },
      { token_endpoint: 'http://idp.example.com/token' },
      { jwks_uri: 'https://169.254.169.254/latest/meta-data' },
      { userinfo_endpoint: 'https://192.168.1.20/userinfo' },
      { authorization_endpoint: 'https://[::1]/auth' },
      { end_session_endpoint: 'https://10.1.2.3/logout' },
    ];
    try {
      for (const endpoints of cases) {
        issuer.advertiseEndpoints(endpoints);
        const [field, url] = Object.entries(endpoints)[0]!;
        const res = await create(tenant.id, { issuer: issuer.issuer });
        expect({ url, status: res.status }).toEqual({ url, status: 400 });
        expect(res.body.message).toContain(field);
      }
    } finally {
      issuer.advertiseEndpoints(undefined);
    }
    expect((await request('GET', `/v1/tenants/${tenant.id}/sso-connections`)).body).toEqual({ items: [] });
    expect(await create(tenant.id, { issuer: issuer.issuer })).toMatchObject({ status: 201 });
  });

  it('refuses an http issuer at a host SSO_ISSUER_ALLOWED_HOSTS does not name, and a refused issuer is told about SSO_ISSUER_ALLOWED_HOSTS, not the audit streams\' setting', async () => {
    const tenant = await newTenant();
    const plain = await create(tenant.id, { issuer: 'http://sso.example.com/realms/acme' }, strict);
    expect(plain).toMatchObject({ status: 400, body: { message: expect.stringContaining('https') } });
    for (const res of [await create(tenant.id, { issuer: issuer.issuer }, strict), await create(tenant.id, { issuer: 'https://10.0.0.8/realms/x' })]) {
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('SSO_ISSUER_ALLOWED_HOSTS');
      expect(res.body.message).not.toContain('AUDIT_STREAM_ALLOWED_HOSTS');
    }
  });
});

describe('POST /v1/internal/idp/sso-sign-ins', () => {
  it("makes a user's first sign-in through the connection an active member with the tenant's default role, source sso; later ones leave it", async () => {
    const tenant = await newTenant();
    const domain = await verifiedDomain(tenant.id);
    await request('POST', '/v1/roles', { slug: 'Helpdesk', name: 'Helpdesk', tenant_id: tenant.id });
    expect((await request('PATCH', `/v1/tenants/${tenant.id}`, { settings: { default_role: 'Helpdesk' } })).status).toBe(200);
    const created = (await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { issuer: issuer.issuer, client_id: 'c', client_secret: 's', domains: [domain] })).body;
    await eventually(() => simulatedProvider(created.idp_alias), 10_000, 'the identity provider');
    const userId = await addSimulatedUser(stack.service.orm, { email: `jane@${domain}` });
    // A user the provider does not have is no sign-in of its: nobody can be made a member by naming a user id.
    expect((await request('POST', '/v1/internal/idp/sso-sign-ins', { user_id: 'not-a-user', idp_alias: created.idp_alias })).status).toBe(404);
    const signIn = { user_id: userId, idp_alias: created.idp_alias, email: `Jane@${domain}`, name: 'Jane Doe' };
    const first = await request('POST', '/v1/internal/idp/sso-sign-ins', signIn);
    expect(first).toMatchObject({ status: 201, body: { user_id: signIn.user_id, email: `jane@${domain}`, roles: ['Helpdesk'], status: 'active', source: 'sso' } });
    expect((await request('POST', '/v1/internal/idp/sso-sign-ins', signIn)).status).toBe(200);
    expect((await eventsOf(tenant.id, 'member.')).map((e) => [e.action, e.metadata.source])).toEqual([['member.added', 'sso']]);
    const claims = await request('POST', '/v1/internal/idp/claims', { user_id: signIn.user_id });
    expect(claims.body).toMatchObject({ tenant_id: tenant.id, org_roles: ['Helpdesk'], membership_status: 'active' });
    expect((await request('POST', '/v1/internal/idp/sso-sign-ins', { ...signIn, idp_alias: 'sso-unknown' })).status).toBe(404);
    expect(await eventsOf(tenant.id, 'sso.sign_in_refused')).toEqual([]);
  });

  it("refuses a sign-in whose account's e-mail is not at one of the connection's verified domains: 403, no member in either tenant, sso.sign_in_refused in the connection's tenant with its alias and the e-mail's domain only", async () => {
    const a = await newTenant();
    const aDomain = await verifiedDomain(a.id);
    const b = await newTenant();
    const bDomain = await verifiedDomain(b.id);
    const connection = (await request('POST', `/v1/tenants/${a.id}/sso-connections`, { issuer: issuer.issuer, client_id: 'c', client_secret: 's', domains: [aDomain] })).body;
    await eventually(() => simulatedProvider(connection.idp_alias), 10_000, 'the identity provider');
    const victim = await addSimulatedUser(stack.service.orm, { email: `ceo@${bDomain}` });
    const asserted = await request('POST', '/v1/internal/idp/sso-sign-ins', { user_id: victim, idp_alias: connection.idp_alias, email: `ceo@${bDomain}` });
    expect(asserted).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    // The report's e-mail is not what is judged: the account's own is.
    const disguised = await request('POST', '/v1/internal/idp/sso-sign-ins', { user_id: victim, idp_alias: connection.idp_alias, email: `ceo@${aDomain}` });
    expect(disguised.status).toBe(403);
    for (const tenant of [a, b]) expect((await request('GET', `/v1/tenants/${tenant.id}/members/${victim}`)).status).toBe(404);
    const refused = await eventsOf(a.id, 'sso.sign_in_refused');
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatchObject({ target_id: connection.id, metadata: { idp_alias: connection.idp_alias, email_domain: bDomain, reason: 'domain_not_of_connection' } });
    expect(JSON.stringify(refused)).not.toContain('ceo@');
    expect(await eventsOf(a.id, 'member.')).toEqual([]);
    expect(await eventsOf(b.id, 'member.')).toEqual([]);
  });
});

describe('POST /v1/internal/idp/sso-sign-in-checks', () => {
  const check = (body: Record<string, unknown>) => request('POST', '/v1/internal/idp/sso-sign-in-checks', body);

  it("allows an e-mail at one of the connection's verified domains, and refuses (403, audited) another tenant's domain, a subdomain, no e-mail, a domain no longer verified and an inactive connection", async () => {
    const a = await newTenant();
    const [aDomain, lapsing] = [await verifiedDomain(a.id), await verifiedDomain(a.id)];
    const b = await newTenant();
    const bDomain = await verifiedDomain(b.id);
    const connection = (await request('POST', `/v1/tenants/${a.id}/sso-connections`, { issuer: issuer.issuer, client_id: 'c', client_secret: 's', domains: [aDomain, lapsing] })).body;
    expect(await check({ idp_alias: connection.idp_alias, email: `Jane@${aDomain.toUpperCase()}` })).toMatchObject({ status: 200, body: { allowed: true, tenant_connection: true, email_domain: aDomain } });
    expect(await check({ idp_alias: connection.idp_alias, email: `mallory@${bDomain}` })).toMatchObject({ status: 403 });
    expect((await check({ idp_alias: connection.idp_alias, email: `mallory@sub.${aDomain}` })).status).toBe(403);
    expect((await check({ idp_alias: connection.idp_alias })).status).toBe(403);
    const [lapsed] = (await request('GET', `/v1/tenants/${a.id}/domains`)).body.items.filter((d: { domain: string }) => d.domain === lapsing);
    await dns.setTxt(lapsed.verification.name, []);
    expect((await request('POST', `/v1/domains/${lapsed.id}/verify`)).body.state).not.toBe('verified');
    expect((await check({ idp_alias: connection.idp_alias, email: `jane@${lapsing}` })).status).toBe(403);
    expect((await request('PATCH', `/v1/sso-connections/${connection.id}`, { state: 'inactive' })).status).toBe(200);
    expect((await check({ idp_alias: connection.idp_alias, email: `jane@${aDomain}` })).status).toBe(403);
    const reasons = (await eventsOf(a.id, 'sso.sign_in_refused')).map((e) => [e.metadata.reason, e.metadata.email_domain]);
    expect(reasons).toEqual([
      ['domain_not_of_connection', bDomain],
      ['domain_not_of_connection', `sub.${aDomain}`],
      ['no_email', null],
      ['domain_not_verified', lapsing],
      ['connection_inactive', aDomain],
    ]);
    expect(await eventsOf(b.id, 'sso.')).toEqual([]);
  });

  it("knows connections by the registry's record, not by their name: an alias that was never a connection is no tenant connection (200, the provider's own flow decides), a deleted connection's is refused (403, audited)", async () => {
    const tenant = await newTenant();
    const domain = await verifiedDomain(tenant.id);
    const connection = (await request('POST', `/v1/tenants/${tenant.id}/sso-connections`, { issuer: issuer.issuer, client_id: 'c', client_secret: 's', domains: [domain] })).body;
    const email = `jane@${domain}`;
    for (const idp_alias of ['sso-unknown', `sso-${crypto.randomUUID()}`, 'partner-oidc', 'saml-partner']) {
      const answer = await check({ idp_alias, email });
      expect(answer, idp_alias).toMatchObject({ status: 200, body: { allowed: true, tenant_connection: false } });
      expect(answer.body, idp_alias).not.toHaveProperty('email_domain');
    }
    expect(await check({ idp_alias: connection.idp_alias, email })).toMatchObject({ status: 200, body: { allowed: true, tenant_connection: true, email_domain: domain } });

    expect((await request('DELETE', `/v1/sso-connections/${connection.id}`)).status).toBe(204);
    // Its identity provider may linger in the provider (its removal is a later step, and may fail): it vouches for no one.
    expect(await check({ idp_alias: connection.idp_alias, email })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(await eventsOf(tenant.id, 'sso.sign_in_refused')).toEqual([
      expect.objectContaining({ target_id: connection.id, metadata: expect.objectContaining({ idp_alias: connection.idp_alias, email_domain: domain, reason: 'connection_deleted' }) }),
    ]);
    expect((await request('POST', '/v1/internal/idp/sso-sign-ins', { user_id: await addSimulatedUser(stack.service.orm, { email }), idp_alias: connection.idp_alias })).status).toBe(404);
  });
});
