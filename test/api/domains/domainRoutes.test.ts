import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { startDnsServer, type DnsServer } from '../../support/dnsServer.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

/** Domains against a real DNS server on loopback (dnsmasq) and the tenants' actors with the simulated provider. */
let dns: DnsServer;
let stack: ActorStack;
beforeAll(async () => {
  dns = await startDnsServer();
  stack = await startActorStack({ settings: { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 500 } });
});
afterAll(async () => {
  await stack?.close();
  await dns?.close();
});

const request = (method: string, path: string, body?: unknown) => stack.service.request(method, path, body);
const newTenant = async () => (await request('POST', '/v1/tenants', { slug: uniqueSlug('dom'), name: 'Domains' })).body.tenant as { id: string; slug: string };
const add = (tenantId: string, domain: string) => request('POST', `/v1/tenants/${tenantId}/domains`, { domain });
const verify = (id: string) => request('POST', `/v1/domains/${id}/verify`);
const eventsOf = async (tenantId: string) =>
  ((await request('GET', `/v1/audit?tenant_id=${tenantId}&limit=500`)).body.items as { action: string; actor_type?: string; metadata: Record<string, unknown> }[])
    .filter((e) => e.action.startsWith('domain.'))
    .reverse();
const organizationDomains = async (tenantId: string) =>
  ((await stack.service.orm.em.fork().execute<{ domains: unknown }[]>(`select domains from idp_sim_organizations where attributes @> ?::jsonb`, [JSON.stringify({ tenant_id: [tenantId] })]))[0]?.domains) ?? [];
/** A name no other test of the run uses. */
const uniqueDomain = () => `${uniqueSlug('acme')}.test`;

describe('POST /v1/tenants/{id}/domains', () => {
  it('claims a domain: pending, with the TXT record to publish, audited; listed with the tenant', async () => {
    const tenant = await newTenant();
    const name = uniqueDomain();
    const res = await add(tenant.id, `${name.toUpperCase()}.`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      tenant_id: tenant.id,
      domain: name,
      state: 'pending',
      verification: { type: 'dns_txt', name: `_tenant-registry.${name}`, value: expect.stringMatching(/^tenant-registry-verification=[0-9a-f]{32}$/) },
      verified_at: null,
      last_checked_at: null,
    });
    expect((await request('GET', `/v1/tenants/${tenant.id}/domains`)).body).toEqual({ items: [res.body] });
    expect((await eventsOf(tenant.id)).map((e) => e.action)).toEqual(['domain.added']);
  });

  it('refuses a public suffix, a consumer mail domain, an address and a non-name (400), a name twice (409), an unknown tenant (404)', async () => {
    const tenant = await newTenant();
    for (const domain of ['co.uk', 'github.io', 'com', 'gmail.com', 'mail.yahoo.co.uk', '192.0.2.1', 'not a domain', 'localhost']) {
      expect((await add(tenant.id, domain)).status, domain).toBe(400);
    }
    const name = uniqueDomain();
    expect((await add(tenant.id, name)).status).toBe(201);
    expect((await add(tenant.id, name)).status).toBe(409);
    expect((await add('00000000-0000-4000-8000-000000000009', uniqueDomain())).status).toBe(404);
  });
});

describe('POST /v1/domains/{id}/verify against the DNS server', () => {
  it('absent: stays pending; published: verified (domain.verified) and on the organization; removed: failed (domain.verification_lost)', async () => {
    const tenant = await newTenant();
    const name = uniqueDomain();
    const domain = (await add(tenant.id, name)).body;
    const absent = await verify(domain.id);
    expect(absent).toMatchObject({ status: 200, body: { state: 'pending', last_checked_at: expect.any(String) } });

    await dns.setTxt(domain.verification.name, ['v=spf1 -all', domain.verification.value]);
    const verified = await verify(domain.id);
    expect(verified).toMatchObject({ status: 200, body: { state: 'verified', verified_at: expect.any(String) } });
    await eventually(async () => JSON.stringify(await organizationDomains(tenant.id)) === JSON.stringify([{ name, verified: true }]), 10_000, 'the domain on the organization');

    // Another tenant cannot claim what this one holds verified.
    expect((await add((await newTenant()).id, name)).status).toBe(409);

    await dns.setTxt(domain.verification.name, []);
    const lost = await verify(domain.id);
    expect(lost).toMatchObject({ status: 200, body: { state: 'failed' } });
    await eventually(async () => (await organizationDomains(tenant.id) as unknown[]).length === 0, 10_000, 'the domain off the organization');
    expect((await eventsOf(tenant.id)).map((e) => e.action)).toEqual(['domain.added', 'domain.verified', 'domain.verification_lost']);
    // Published again, a failed domain verifies again.
    await dns.setTxt(domain.verification.name, [domain.verification.value]);
    expect((await verify(domain.id)).body.state).toBe('verified');
    await dns.setTxt(domain.verification.name, []);
  });

  it("a record with another tenant's token does not verify; a resolver that does not answer is 503 and leaves the domain as it was", async () => {
    const tenant = await newTenant();
    const domain = (await add(tenant.id, uniqueDomain())).body;
    await dns.setTxt(domain.verification.name, ['tenant-registry-verification=00000000000000000000000000000000']);
    expect((await verify(domain.id)).body.state).toBe('pending');
    await dns.setTxt(domain.verification.name, [domain.verification.value]);
    await dns.stop();
    try {
      expect(await verify(domain.id)).toMatchObject({ status: 503, body: { error: 'unavailable', message: expect.stringContaining('DNS resolver') } });
      expect((await request('GET', `/v1/tenants/${tenant.id}/domains`)).body.items[0]).toMatchObject({ state: 'pending' });
    } finally {
      await dns.start();
    }
    expect((await verify(domain.id)).body.state).toBe('verified');
    await dns.setTxt(domain.verification.name, []);
  });

  it('is 404 for an unknown domain', async () => {
    expect((await verify('00000000-0000-4000-8000-00000000000a')).status).toBe(404);
  });
});

describe('DELETE /v1/domains/{id}', () => {
  it('removes it (domain.removed) and a verified one leaves the organization; again is 404', async () => {
    const tenant = await newTenant();
    const name = uniqueDomain();
    const domain = (await add(tenant.id, name)).body;
    await dns.setTxt(domain.verification.name, [domain.verification.value]);
    expect((await verify(domain.id)).body.state).toBe('verified');
    await eventually(async () => (await organizationDomains(tenant.id) as unknown[]).length === 1, 10_000, 'on the organization');
    expect((await request('DELETE', `/v1/domains/${domain.id}`)).status).toBe(204);
    expect((await request('DELETE', `/v1/domains/${domain.id}`)).status).toBe(404);
    await eventually(async () => (await organizationDomains(tenant.id) as unknown[]).length === 0, 10_000, 'off the organization');
    expect((await eventsOf(tenant.id)).map((e) => e.action)).toEqual(['domain.added', 'domain.verified', 'domain.removed']);
    // Another tenant may claim the name now.
    expect((await add((await newTenant()).id, name)).status).toBe(201);
    await dns.setTxt(domain.verification.name, []);
  });
});
