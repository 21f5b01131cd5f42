import { TENANT_LIST_DEFAULT_LIMIT, type TenantListQuery } from '../schemas/tenant.ts';
import type { RegistryCache } from '../reads/registryCache.ts';
import { decodeTenantCursor, encodeTenantCursor } from './tenantListCursor.ts';
import type { TenantListFilter, TenantListPosition, TenantRepository } from './tenantRepository.ts';
import { keptListing } from '../reads/keptListing.ts';
import { TENANT_LISTING } from '../reads/listingNames.ts';
import { EVERY_TENANT, type TenantReach } from '../access/tenantReach.ts';

/**
 * Newest first, keyset-paginated on (created_at, id): a deep page costs what the first one does. A tenant-bound
 * caller sees its own tenants only. The page is the TenantPage body's JSON text.
 *
 * The store answers which tenants a page holds, in order, from the listing index alone; each tenant's JSON comes
 * from the registry cache, as a tenant's own read answers it (tenantDocument.ts: forgotten on every replica at any
 * change of the tenant), the ones it lacks from the store in one statement, written there by PostgreSQL (issue 40:
 * rows decoded only to be encoded again were most of what a page cost). A tenant gone between the two reads is left
 * out of the page. Pages answered lately are kept until any tenant changes (domain/reads/keptListing.ts): a page read from
 * memory costs no round trip to the store, which was most of what it cost.
 */
export async function listTenants(
  tenants: TenantRepository,
  cache: RegistryCache,
  query: TenantListQuery,
  reach: TenantReach = EVERY_TENANT,
): Promise<string | Buffer> {
  const limit = query.limit ?? TENANT_LIST_DEFAULT_LIMIT;
  const after = query.cursor === undefined ? undefined : decodeTenantCursor(query.cursor);
  const filter = { status: query.status, kind: query.kind, plan: query.plan, prefix: query.q?.toLowerCase(), ...(reach.bound ? { ids: [...reach.tenantIds] } : {}) };
  return keptListing(cache, TENANT_LISTING, tenantListingQuery(filter, limit, query.cursor), () => pageOfTenants(tenants, cache, filter, after, limit));
}

/**
 * What a page of the tenants' listing is kept under. Every field but the last is of a fixed form (a number, a cursor's
 * characters, an enum's value, the ids' JSON) or led by its length (the plan), so two queries never share a key.
 */
export const tenantListingQuery = (filter: TenantListFilter, limit: number, cursor: string | undefined) =>
  `${limit}|${cursor ?? ''}|${filter.status ?? ''}|${filter.kind ?? ''}|${filter.ids ? JSON.stringify(filter.ids) : '*'}|${filter.plan?.length ?? ''}|${filter.plan ?? ''}|${filter.prefix ?? ''}`;

async function pageOfTenants(tenants: TenantRepository, cache: RegistryCache, filter: TenantListFilter, after: TenantListPosition | undefined, limit: number): Promise<string> {
  const generation = cache.generation();
  // One extra tenant tells whether another page follows.
  const positions = await tenants.page(filter, after, limit + 1);
  const page = positions.slice(0, limit);
  const json = new Map<string, string>();
  const missing: string[] = [];
  for (const { id } of page) {
    const held = cache.documents.tenant({ by: 'id', id });
    if (held) json.set(id, held.json);
    else missing.push(id);
  }
  if (missing.length > 0) {
    for (const document of await tenants.documents(missing)) {
      json.set(document.id, document.json);
      cache.documents.putTenant(document, generation);
    }
  }
  const items = `[${page.flatMap(({ id }) => json.get(id) ?? []).join(',')}]`;
  if (positions.length <= limit) return `{"items":${items}}`;
  return `{"items":${items},"next_cursor":"${encodeTenantCursor(positions[limit - 1]!)}"}`;
}
