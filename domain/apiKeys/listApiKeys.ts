import { notFound } from '../errors.ts';
import { keptListing } from '../reads/keptListing.ts';
import { apiKeyListing } from '../reads/listingNames.ts';
import type { RegistryContext } from '../registryContext.ts';

/**
 * Newest first, revoked and expired keys included so operators can audit them: the ApiKeyList body's JSON text, kept
 * until the tenant's keys change (domain/reads/keptListing.ts).
 */
export async function listApiKeys({ stores, cache }: Pick<RegistryContext, 'stores' | 'cache'>, tenantId: string): Promise<string | Buffer> {
  return keptListing(cache, apiKeyListing(tenantId), '', async () => {
    const list = await stores.apiKeys.listOfTenant(tenantId);
    if (!list) throw notFound('tenant');
    return `{"items":[${list.join(',')}]}`;
  });
}
