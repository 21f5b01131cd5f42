import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { startDnsServer, type DnsServer } from '../support/dnsServer.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { keycloakSettings } from '../support/keycloakContext.ts';
import { uniqueSlug } from '../support/testService.ts';

/** A tenant's verified domains on its organization in the run's real Keycloak (SPEC-EXTENSIONS §9). */
let dns: DnsServer;
let stack: ActorStack;
beforeAll(async () => {
  dns = await startDnsServer();
  stack = await startActorStack({
    settings: { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 500 },
    idp: () => new KeycloakIdentityProvider(keycloakSettings()),
  });
});
afterAll(async () => {
  await stack?.close();
  await dns?.close();
});

/** The organization's domains as Keycloak has them, by the tenant's slug (the organization's alias). */
async function organizationDomains(slug: string): Promise<{ name?: string; verified?: boolean }[] | undefined> {
  const admin = await keycloakAdmin();
  const [organization] = (await admin.organizations.find({ search: slug })).filter((o) => o.alias === slug);
  if (!organization?.id) return undefined;
  return ((await admin.organizations.findOne({ id: organization.id }))?.domains ?? []).map(({ name, verified }) => ({ name, verified }));
}

describe("a tenant's verified domains in Keycloak", () => {
  it('are on its organization, marked verified, while they stay verified; a removed one leaves it', async () => {
    const slug = uniqueSlug('kcdom');
    const tenant = (await stack.service.request('POST', '/v1/tenants', { slug, name: `Domains ${slug}` })).body.tenant;
    const name = `${slug}.test`;
    const domain = (await stack.service.request('POST', `/v1/tenants/${tenant.id}/domains`, { domain: name })).body;
    await dns.setTxt(domain.verification.name, [domain.verification.value]);
    expect((await stack.service.request('POST', `/v1/domains/${domain.id}/verify`)).body.state).toBe('verified');
    const placeholder = [{ name: `${slug}.tenants.invalid`, verified: false }];
    await eventually(async () => JSON.stringify(await organizationDomains(slug)) === JSON.stringify([{ name, verified: true }]), 20_000, 'the domain on the organization');

    // Keycloak wants one domain at least: without a verified one the organization keeps its placeholder, never verified.
    expect((await stack.service.request('DELETE', `/v1/domains/${domain.id}`)).status).toBe(204);
    await eventually(async () => JSON.stringify(await organizationDomains(slug)) === JSON.stringify(placeholder), 20_000, 'the domain off the organization');
    expect(await stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=idp.domain_sync_failed`)).toMatchObject({ body: { items: [] } });
  });
});
