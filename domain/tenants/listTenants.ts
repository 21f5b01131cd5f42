import { TENANT_LIST_DEFAULT_LIMIT, type TenantListQuery } from '../schemas/tenant.ts';
import { decodeTenantCursor, encodeTenantCursor } from './tenantListCursor.ts';
import type { TenantRepository } from './tenantRepository.ts';
import { EVERY_TENANT, type TenantReach } from '../access/tenantReach.ts';

/**
 * Newest first, keyset-paginated on (created_at, id): a deep page costs what the first one does. A tenant-bound
 * caller sees its own tenants only. The page is the TenantPage body's JSON text, its tenants as the store wrote them.
 */
export async function listTenants(
  tenants: TenantRepository,
  query: TenantListQuery,
  reach: TenantReach = EVERY_TENANT,
): Promise<string> {
  const limit = query.limit ?? TENANT_LIST_DEFAULT_LIMIT;
  const after = query.cursor === undefined ? undefined : decodeTenantCursor(query.cursor);
  const filter = { status: query.status, kind: query.kind, plan: query.plan, prefix: query.q?.toLowerCase(), ...(reach.bound ? { ids: [...reach.tenantIds] } : {}) };
  // One extra tenant tells whether another page follows.
  const rows = await tenants.page(filter, after, limit + 1);
  const items = `[${rows.slice(0, limit).map((r) => r.json).join(',')}]`;
  if (rows.length <= limit) return `{"items":${items}}`;
  return `{"items":${items},"next_cursor":"${encodeTenantCursor(rows[limit - 1]!.position)}"}`;
}
