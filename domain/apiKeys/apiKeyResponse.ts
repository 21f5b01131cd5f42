import type { ApiKeyRecord } from './apiKeyRecord.ts';
import type { ApiKey } from '../schemas/apiKey.ts';

/** Never includes the hash or the plaintext. */
export function toApiKey(r: ApiKeyRecord): ApiKey {
  const key: ApiKey = {
    id: r.id,
    tenant_id: r.tenantId,
    name: r.name,
    scopes: r.scopes,
    prefix: r.prefix,
    last_used_at: r.lastUsedAt ? r.lastUsedAt.toISOString() : null,
    revoked_at: r.revokedAt ? r.revokedAt.toISOString() : null,
    expires_at: r.expiresAt ? r.expiresAt.toISOString() : null,
    rotated_from: r.rotatedFrom,
    created_at: r.createdAt.toISOString(),
  };
  if (r.product) key.product = r.product;
  if (r.createdBy) key.created_by = r.createdBy;
  return key;
}
