import { notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { RegistryContext } from '../registryContext.ts';
import { apiKeyListing } from '../reads/listingNames.ts';
import { EVERY_TENANT, requireReach, type TenantReach } from '../access/tenantReach.ts';

/**
 * Sets revoked_at once; revoking a revoked key is a no-op so retries are safe and the first timestamp stands.
 * Once committed, this replica refuses the key at once (the others when they hear the change's NOTIFY).
 */
export async function revokeApiKey({ stores, effects }: RegistryContext, id: string, meta: RequestMeta, reach: TenantReach = EVERY_TENANT): Promise<void> {
  const revoked = await stores.apiKeys.change(id, meta, (key, now) => {
    requireReach(reach, key.tenantId, 'API key');
    if (key.revokedAt) return { result: { prefix: key.prefix, tenantId: key.tenantId } };
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
      result: { prefix: key.prefix, tenantId: key.tenantId },
    };
  });
  if (!revoked) throw notFound('API key');
  effects.follow({ staleApiKeys: [revoked.prefix], staleListings: [apiKeyListing(revoked.tenantId)] });
}
