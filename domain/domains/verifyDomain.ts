import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { AppError, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { planDomainCheck } from './domainCheck.ts';
import type { DomainChecks } from './domainChecks.ts';
import { verificationName, type DomainRecord } from './domainRecord.ts';
import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';

/**
 * Looks the domain's TXT record up and applies what it found (planDomainCheck) under the name's lock: by the API now,
 * or by the tenant's actor on its timer. Another tenant holding the name verified meanwhile counts as not found.
 * Answers the domain, whether its state changed, the `syncDomains` hand-off a change of state wrote, and `unavailable`
 * with the resolver's code when it did not answer (nothing changed but the time of the next look-up).
 */
export async function checkDomain(
  stores: Pick<RegistryContext['stores'], 'domains'>,
  checks: DomainChecks,
  id: string,
  meta: RequestMeta,
  asOf?: Date,
): Promise<{ domain: DomainRecord; changed: boolean; unavailable?: string; handOffs: QueuedActorCommand[] } | undefined> {
  const found = await stores.domains.find(id);
  if (!found) return undefined;
  const answer = await checks.lookup(verificationName(found.domain));
  const written = await stores.domains.change({ by: 'id', id }, meta, (facts, now) => {
    if (!facts.domain) return { result: undefined };
    const seen = facts.verifiedElsewhere && facts.domain.state !== 'verified' && 'values' in answer ? { values: [] } : answer;
    const { domain, event } = planDomainCheck(facts.domain, seen, asOf ?? now, checks.times);
    // A change of state changes the organization's verified domains; any check moves the actor's timer.
    return { put: domain, ...(event ? { event } : {}), sync: domain.state !== facts.domain.state, result: domain };
  });
  if (!written?.result) return undefined;
  const changed = written.result.state !== found.state;
  return { domain: written.result, changed, handOffs: written.handOffs, ...('unavailable' in answer ? { unavailable: answer.unavailable } : {}) };
}

/** POST /v1/domains/{id}/verify: the look-up now; a resolver that did not answer is 503, the domain as it was. */
export async function verifyDomainNow(context: RegistryContext, id: string, meta: RequestMeta, reach: TenantReach): Promise<DomainRecord> {
  const found = await context.stores.domains.find(id);
  if (!found) throw notFound('domain');
  requireReach(reach, found.tenantId, 'domain');
  if (!context.domainChecks) throw new AppError('unavailable', 'no DNS resolver is configured in this process');
  const checked = await checkDomain(context.stores, context.domainChecks, id, meta);
  if (!checked) throw notFound('domain');
  context.effects.follow({ handOffs: checked.handOffs });
  if (checked.unavailable) throw new AppError('unavailable', `the DNS resolver did not answer (${checked.unavailable}); the domain is as it was`);
  return checked.domain;
}
