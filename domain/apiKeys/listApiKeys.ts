import { notFound } from '../errors.ts';
import type { ApiKeyRepository } from './apiKeyRepository.ts';

/** Newest first, revoked and expired keys included so operators can audit them: the ApiKeyList body's JSON text. */
export async function listApiKeys(keys: ApiKeyRepository, tenantId: string): Promise<string> {
  const list = await keys.listOfTenant(tenantId);
  if (!list) throw notFound('tenant');
  return `{"items":[${list.join(',')}]}`;
}
