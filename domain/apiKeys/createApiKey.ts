import { randomUUID } from 'node:crypto';
import { invalidInput, notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { ApiKeyCreate } from '../schemas/apiKey.ts';
import { generateApiKey } from '../apiKeyFormat.ts';
import { withoutHash, type ApiKeyRecord, type NewApiKey } from './apiKeyRecord.ts';
import type { RegistryContext } from '../registryContext.ts';
import { apiKeyListing } from '../reads/listingNames.ts';

export const PLAINTEXT_WARNING = 'Store this key now: it is shown only once and cannot be recovered.';

/** A fresh key with new secret material; the plaintext exists only in this value and the caller's response. */
export function newApiKey(fields: Pick<ApiKeyRecord, 'tenantId' | 'product' | 'name' | 'scopes' | 'createdBy' | 'expiresAt' | 'rotatedFrom'>, now: Date) {
  const { plaintext, prefix, hash } = generateApiKey();
  const key: NewApiKey = { ...fields, id: randomUUID(), prefix, keyHash: hash, lastUsedAt: null, revokedAt: null, createdAt: now };
  return { key, plaintext };
}

export async function createApiKey({ stores, effects }: Pick<RegistryContext, 'stores' | 'effects'>, input: ApiKeyCreate, meta: RequestMeta): Promise<{ record: ApiKeyRecord; plaintext: string }> {
  const now = new Date();
  const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at);
  if (expiresAt && expiresAt <= now) throw invalidInput('expires_at must be in the future');
  const { key, plaintext } = newApiKey(
    {
      tenantId: input.tenant_id,
      product: input.product ?? null,
      name: input.name,
      scopes: [...new Set(input.scopes ?? [])],
      createdBy: input.created_by ?? null,
      expiresAt,
      rotatedFrom: null,
    },
    now,
  );
  const metadata: Record<string, unknown> = { prefix: key.prefix, scopes: key.scopes };
  if (expiresAt) metadata.expires_at = expiresAt.toISOString();
  const created = await stores.apiKeys.insert(
    key,
    { action: 'api_key.created', tenant_id: key.tenantId, product: input.product, target_id: key.id, target_type: 'api_key', target_name: key.name, metadata },
    meta,
  );
  if (!created) throw notFound('tenant');
  effects.follow({ staleListings: [apiKeyListing(key.tenantId)] });
  return { record: withoutHash(key), plaintext };
}
