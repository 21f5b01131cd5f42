import { notFound } from '../errors.ts';
import type { ApiKeyRecord } from './apiKeyRecord.ts';
import type { ApiKeyRepository } from './apiKeyRepository.ts';

/** Newest first, revoked and expired keys included so operators can audit them. */
export async function listApiKeys(keys: ApiKeyRepository, tenantId: string): Promise<ApiKeyRecord[]> {
  const list = await keys.listOfTenant(tenantId);
  if (!list) throw notFound('tenant');
  return list;
}
