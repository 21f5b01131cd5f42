import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { ApiKeyEntity } from '../entities/apiKeyEntity.ts';
import { notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { appendAuditEvent } from '../audit/appendAuditEvent.ts';

/**
 * Sets revoked_at once; revoking a revoked key is a no-op so retries are safe and the first timestamp stands.
 * Returns the key's prefix, under which caches hold it.
 */
export async function revokeApiKey(em: EntityManager, id: string, meta: RequestMeta): Promise<{ prefix: string }> {
  return em.transactional(async (tx) => {
    const key = await tx.findOne(ApiKeyEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!key) throw notFound('API key');
    if (key.revokedAt) return { prefix: key.prefix };
    key.revokedAt = new Date();
    await tx.flush();
    await appendAuditEvent(
      tx,
      {
        action: 'api_key.revoked',
        tenant_id: key.tenantId,
        product: key.product ?? undefined,
        target_id: key.id,
        target_type: 'api_key',
        target_name: key.name,
        metadata: { prefix: key.prefix },
      },
      meta,
    );
    return { prefix: key.prefix };
  });
}
