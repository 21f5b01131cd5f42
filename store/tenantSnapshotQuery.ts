import type { TenantLookup } from '../domain/claimsLookup.ts';
import type { CachedTenant } from '../domain/registryCache.ts';
import type { Sql } from './sql.ts';

interface SnapshotRow {
  id: string;
  slug: string;
  plan: string;
  status: string;
  entitlements: { product: string; enabled: boolean; expires_at: string | null }[] | string;
}

/** A tenant with its entitlements as one JSON array, without entity hydration; a WHERE clause follows. */
const SELECT_SNAPSHOT = `select t.id, t.slug, t.plan, t.status,
    coalesce((select json_agg(json_build_object('product', p.product, 'enabled', p.enabled, 'expires_at', p.expires_at)
                              order by p.product)
                from tenant_products p where p.tenant_id = t.id), '[]') as entitlements
  from tenants t`;

/**
 * What claims and verify need of a tenant, in one query and without entity hydration: status, slug, plan and the
 * entitlements (their expiry is judged when read, so a cached snapshot stays correct as time passes).
 */
export async function loadTenantSnapshot(sql: Sql, lookup: TenantLookup): Promise<CachedTenant | undefined> {
  const { rows } = await sql.query<SnapshotRow>({
    name: lookup.by === 'id' ? 'tenant_snapshot_by_id' : 'tenant_snapshot_by_slug',
    text: `${SELECT_SNAPSHOT} where ${lookup.by === 'id' ? 't.id = $1' : 't.slug = $1'}`,
    values: [lookup.by === 'id' ? lookup.id : lookup.slug],
  });
  const row = rows[0];
  if (!row) return undefined;
  return toSnapshot(row);
}

function toSnapshot(row: SnapshotRow): CachedTenant {
  const entitlements = typeof row.entitlements === 'string' ? JSON.parse(row.entitlements) as Exclude<SnapshotRow['entitlements'], string> : row.entitlements;
  return {
    id: row.id,
    slug: row.slug,
    plan: row.plan,
    status: row.status,
    entitlements: entitlements.map((e) => ({ product: e.product, enabled: e.enabled, expiresAt: e.expires_at === null ? null : Date.parse(e.expires_at) })),
  };
}

/** The snapshots of several tenants in one read (memberships). */
export async function loadTenantSnapshots(sql: Sql, ids: string[]): Promise<CachedTenant[]> {
  const { rows } = await sql.query<SnapshotRow>({
    name: 'tenant_snapshots_by_ids',
    text: `${SELECT_SNAPSHOT} where t.id = any($1::uuid[])`,
    values: [ids],
  });
  return rows.map(toSnapshot);
}
