import type { EntityManager } from '@mikro-orm/postgresql';
import { TenantProductEntity, type TenantProductRecord } from '../entities/tenantProductEntity.ts';
import { findTenantById } from '../tenants/findTenant.ts';

/** A tenant's entitlements, including disabled and expired ones, so operators see the whole picture. */
export async function listEntitlements(em: EntityManager, tenantId: string): Promise<TenantProductRecord[]> {
  await findTenantById(em, tenantId);
  return em.find(TenantProductEntity, { tenantId }, { orderBy: { product: 'asc' } });
}

/** The products that count for claims: enabled and not past their expiry. */
export const isEntitlementCurrent = (r: TenantProductRecord, now: Date) => r.enabled && (!r.expiresAt || r.expiresAt > now);
