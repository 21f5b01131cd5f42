import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKeyEntity, type ApiKeyRecord } from '../entities/apiKeyEntity.ts';
import { findTenantById } from '../tenants/findTenant.ts';

/** Newest first, revoked keys included (with revoked_at) so operators can audit them. */
export async function listApiKeys(em: EntityManager, tenantId: string): Promise<ApiKeyRecord[]> {
  await findTenantById(em, tenantId);
  return em.find(ApiKeyEntity, { tenantId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
}
