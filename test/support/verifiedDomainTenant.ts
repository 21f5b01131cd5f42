import { expect } from 'vitest';
import type { DnsServer } from './dnsServer.ts';
import { uniqueSlug, type TestService } from './testService.ts';

export type VerifiedDomainTenant = { id: string; slug: string; domain: string };

/** A new tenant with the domain `<slug>.test`, verified by its TXT record served from `dns`: what an SSO connection names. */
export async function verifiedDomainTenant(service: TestService, dns: DnsServer, prefix: string): Promise<VerifiedDomainTenant> {
  const slug = uniqueSlug(prefix);
  const created = (await service.request('POST', '/v1/tenants', { slug, name: `${prefix} ${slug}` })).body.tenant;
  const domain = (await service.request('POST', `/v1/tenants/${created.id}/domains`, { domain: `${slug}.test` })).body;
  await dns.setTxt(domain.verification.name, [domain.verification.value]);
  expect((await service.request('POST', `/v1/domains/${domain.id}/verify`)).body.state).toBe('verified');
  return { id: created.id, slug, domain: `${slug}.test` };
}
