import { randomBytes } from 'node:crypto';
import { conflict, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { domainAuditEvent, PENDING_CHECKS } from './domainCheck.ts';
import { claimableDomain } from './domainName.ts';
import type { DomainRecord } from './domainRecord.ts';
import type { DomainChange, DomainChangeFacts } from './domainRepository.ts';
import { requireBelowLimit, type TenantLimits } from '../tenants/tenantLimits.ts';

/**
 * The rule of a new domain: 409 when the tenant has the name already or another tenant holds it verified, 409
 * `limit_reached` when it holds its limit of domains; else a pending domain with a new token, first looked up by the
 * tenant's actor a minute later (`domain.added`).
 */
export function planDomain(id: string, domain: string, token: string, limits: TenantLimits) {
  return (facts: DomainChangeFacts, now: Date): DomainChange<DomainRecord> => {
    if (facts.domain) throw conflict(`the tenant has ${domain} already`);
    if (facts.verifiedElsewhere) throw conflict(`${domain} is verified by another tenant`);
    requireBelowLimit(limits, 'domains', facts.ofTenant);
    const record: DomainRecord = {
      id,
      tenantId: facts.tenantId,
      domain,
      state: 'pending',
      token,
      verifiedAt: null,
      lastCheckedAt: null,
      nextCheckAt: new Date(now.getTime() + PENDING_CHECKS.initialIntervalMs),
      misses: 0,
      createdAt: now,
      updatedAt: now,
    };
    return { put: record, event: domainAuditEvent('domain.added', record), sync: true, result: record };
  };
}

export async function addDomain({ stores, effects, tenantLimits }: RegistryContext, tenantId: string, input: string, meta: RequestMeta): Promise<DomainRecord> {
  const domain = claimableDomain(input);
  const written = await stores.domains.change({ by: 'name', tenantId, domain }, meta, planDomain(crypto.randomUUID(), domain, randomBytes(16).toString('hex'), tenantLimits));
  if (!written) throw notFound('tenant');
  effects.follow({ handOffs: written.handOffs });
  return written.result;
}
