import { notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { ApiKeyRepository } from './apiKeyRepository.ts';

/**
 * Sets revoked_at once; revoking a revoked key is a no-op so retries are safe and the first timestamp stands.
 * Returns the key's prefix, under which caches hold it.
 */
export async function revokeApiKey(keys: ApiKeyRepository, id: string, meta: RequestMeta): Promise<{ prefix: string }> {
  const revoked = await keys.change(id, meta, (key, now) => {
    if (key.revokedAt) return { result: { prefix: key.prefix } };
    return {
      revokedAt: now,
      event: {
        action: 'api_key.revoked',
        tenant_id: key.tenantId,
        product: key.product ?? undefined,
        target_id: key.id,
        target_type: 'api_key',
        target_name: key.name,
        metadata: { prefix: key.prefix },
      },
      result: { prefix: key.prefix },
    };
  });
  if (!revoked) throw notFound('API key');
  return revoked;
}
