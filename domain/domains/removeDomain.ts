import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { domainAuditEvent } from './domainCheck.ts';

/** Removes the domain (`domain.removed`, with the state it was in); a verified one leaves the tenant's organization. */
export async function removeDomain({ stores, effects }: RegistryContext, id: string, meta: RequestMeta, reach: TenantReach): Promise<void> {
  const found = await stores.domains.find(id);
  if (!found) throw notFound('domain');
  requireReach(reach, found.tenantId, 'domain');
  const written = await stores.domains.change({ by: 'id', id }, meta, (facts) => {
    if (!facts.domain) throw notFound('domain');
    return { remove: true, event: domainAuditEvent('domain.removed', facts.domain, { state: facts.domain.state }), sync: true, result: undefined };
  });
  if (!written) throw notFound('domain');
  effects.follow({ handOffs: written.handOffs });
}
