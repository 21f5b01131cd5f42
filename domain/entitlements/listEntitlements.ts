import type { TenantRepository } from '../tenants/tenantRepository.ts';
import { findTenant } from '../tenants/findTenant.ts';
import type { TenantProductRecord } from './tenantProductRecord.ts';

/** A tenant's entitlements, including disabled and expired ones, so operators see the whole picture. */
export async function listEntitlements(tenants: TenantRepository, tenantId: string): Promise<TenantProductRecord[]> {
  await findTenant(tenants, { by: 'id', id: tenantId });
  return tenants.entitlementsOf(tenantId);
}
