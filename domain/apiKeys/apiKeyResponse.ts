import type { ApiKeyRecord } from './apiKeyRecord.ts';
import type { ApiKey } from '../schemas/apiKey.ts';
import { isoTimestamp } from '../isoTimestamp.ts';

/** Never includes the hash or the plaintext. */
export function toApiKey(r: ApiKeyRecord): ApiKey {
  const key: ApiKey = {
    id: r.id,
    tenant_id: r.tenantId,
    name: r.name,
    scopes: r.scopes,
    prefix: r.prefix,
    last_used_at: r.lastUsedAt ? isoTimestamp(r.lastUsedAt) : null,
    revoked_at: r.revokedAt ? isoTimestamp(r.revokedAt) : null,
    expires_at: r.expiresAt ? isoTimestamp(r.expiresAt) : null,
    rotated_from: r.rotatedFrom,
    created_at: isoTimestamp(r.createdAt),
  };
  if (r.product) key.product = r.product;
  if (r.createdBy) key.created_by = r.createdBy;
  return key;
}
