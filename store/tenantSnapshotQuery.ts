import type { CachedTenant } from '../domain/reads/tenantCache.ts';
import { signInPolicyOf, type StoredSignInPolicy } from '../domain/signIn/signInPolicy.ts';
import type { Sql } from './sql.ts';

interface SnapshotRow {
  id: string;
  slug: string;
  plan: string;
  status: string;
  entitlements: { product: string; enabled: boolean; expires_at: string | null }[] | string;
  sign_in: StoredSignInPolicy | string | null;
  sso_aliases: string[];
}

/**
 * A tenant with its entitlements as one JSON array, its sign-in policy and its active SSO connections' aliases, without
 * entity hydration, in the one statement claims and verify already made; a WHERE clause follows.
 */
const SELECT_SNAPSHOT = `select t.id, t.slug, t.plan, t.status,
    coalesce((select json_agg(json_build_object('product', p.product, 'enabled', p.enabled, 'expires_at', p.expires_at)
                              order by p.product)
                from tenant_products p where p.tenant_id = t.id), '[]') as entitlements,
    t.settings -> 'sign_in' as sign_in,
    array(select s.idp_alias from sso_connections s where s.tenant_id = t.id and s.state = 'active' order by s.idp_alias) as sso_aliases
  from tenants t`;

/**
 * What claims and verify need of tenants, by id or by slug, in one query and without entity hydration: status, slug,
 * plan, the sign-in policy, the SSO connections' aliases and the entitlements (their expiry is judged when read, so a cached snapshot stays correct as time passes).
 */
export async function loadTenantSnapshotsBy(sql: Sql, column: 'id' | 'slug', keys: string[]): Promise<CachedTenant[]> {
  const { rows } = await sql.query<SnapshotRow>({
    name: column === 'id' ? 'tenant_snapshots_by_ids' : 'tenant_snapshots_by_slugs',
    text: `${SELECT_SNAPSHOT} where t.${column} = any($1::${column === 'id' ? 'uuid' : 'text'}[])`,
    values: [keys],
  });
  return rows.map(toSnapshot);
}

function toSnapshot(row: SnapshotRow): CachedTenant {
  const entitlements = typeof row.entitlements === 'string' ? JSON.parse(row.entitlements) as Exclude<SnapshotRow['entitlements'], string> : row.entitlements;
  const signIn = typeof row.sign_in === 'string' ? JSON.parse(row.sign_in) as StoredSignInPolicy : row.sign_in;
  return {
    id: row.id,
    slug: row.slug,
    plan: row.plan,
    status: row.status,
    entitlements: entitlements.map((e) => ({ product: e.product, enabled: e.enabled, expiresAt: e.expires_at === null ? null : Date.parse(e.expires_at) })),
    signIn: signInPolicyOf(signIn ?? undefined),
    ssoAliases: row.sso_aliases,
  };
}
