import type { TenantLookup } from '../claims/claimsLookup.ts';
import { notFound } from '../errors.ts';
import type { TenantRecord } from './tenantRecord.ts';
import type { TenantRepository } from './tenantRepository.ts';
import { EVERY_TENANT, requireReach, type TenantReach } from '../access/tenantReach.ts';

/** The tenant, or not_found, also for one a tenant-bound caller may not reach (by slug, its id is known only now). */
export async function findTenant(tenants: TenantRepository, lookup: TenantLookup, reach: TenantReach = EVERY_TENANT): Promise<TenantRecord> {
  const tenant = await tenants.find(lookup);
  if (!tenant) throw notFound('tenant');
  requireReach(reach, tenant.id);
  return tenant;
}
