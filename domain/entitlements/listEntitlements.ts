import { notFound } from '../errors.ts';
import type { TenantRepository } from '../tenants/tenantRepository.ts';
import type { TenantProductRecord } from './tenantProductRecord.ts';

/** A tenant's entitlements, including disabled and expired ones, so operators see the whole picture. */
export async function listEntitlements(tenants: TenantRepository, tenantId: string): Promise<TenantProductRecord[]> {
  const entitlements = await tenants.entitlementsOf(tenantId);
  if (!entitlements) throw notFound('tenant');
  return entitlements;
}
