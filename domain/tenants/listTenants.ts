import { TENANT_LIST_DEFAULT_LIMIT, type TenantListQuery } from '../schemas/tenant.ts';
import { decodeTenantCursor, encodeTenantCursor } from './tenantListCursor.ts';
import type { TenantRecord } from './tenantRecord.ts';
import type { TenantRepository } from './tenantRepository.ts';

/** Newest first, keyset-paginated on (created_at, id): a deep page costs what the first one does. */
export async function listTenants(tenants: TenantRepository, query: TenantListQuery): Promise<{ items: TenantRecord[]; nextCursor?: string }> {
  const limit = query.limit ?? TENANT_LIST_DEFAULT_LIMIT;
  const after = query.cursor === undefined ? undefined : decodeTenantCursor(query.cursor);
  const filter = { status: query.status, kind: query.kind, plan: query.plan, prefix: query.q?.toLowerCase() };
  // One extra tenant tells whether another page follows.
  const rows = await tenants.page(filter, after, limit + 1);
  const items = rows.slice(0, limit).map((r) => r.tenant);
  if (rows.length <= limit) return { items };
  return { items, nextCursor: encodeTenantCursor(rows[limit - 1]!.position) };
}
