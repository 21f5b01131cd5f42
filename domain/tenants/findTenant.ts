import type { TenantLookup } from '../claimsLookup.ts';
import { notFound } from '../errors.ts';
import type { TenantRecord } from './tenantRecord.ts';
import type { TenantRepository } from './tenantRepository.ts';

export async function findTenant(tenants: TenantRepository, lookup: TenantLookup): Promise<TenantRecord> {
  const tenant = await tenants.find(lookup);
  if (!tenant) throw notFound('tenant');
  return tenant;
}
