import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { DomainRecord } from './domainRecord.ts';

export async function listDomains({ stores }: RegistryContext, tenantId: string): Promise<DomainRecord[]> {
  const domains = await stores.domains.ofTenant(tenantId);
  if (!domains) throw notFound('tenant');
  return domains;
}
