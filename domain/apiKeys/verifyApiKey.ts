import type { ApiKeyVerify } from '../schemas/apiKey.ts';
import { hashMatches, parseApiKey } from '../apiKeyFormat.ts';
import type { CachedApiKey, RegistryCache } from '../registryCache.ts';
import { loadTenantSnapshot } from '../tenants/tenantSnapshot.ts';
import type { Sql } from '../sql.ts';

interface KeyRow {
  id: string;
  tenant_id: string;
  product: string | null;
  scopes: string[];
  key_hash: Buffer;
  /** Raw rows from `execute` carry timestamps as text (not Date): read them through `new Date()`. */
  revoked_at: Date | string | null;
  last_used_at: Date | string | null;
  tenant_status: string;
}

const INVALID: ApiKeyVerify = { valid: false };
const USABLE_TENANT_STATUSES = new Set(['demo', 'trial', 'active']);

export interface VerifyOptions {
  /** last_used_at is advanced at most once per this many seconds per key, so verify is a read on the hot path. */
  lastUsedResolutionSeconds: number;
  /** Writes last_used_at of a key in the background (LastUsedMarks). */
  markUsed: (keyId: string) => void;
  /** Keys by prefix and tenants' status; see domain/registryCache.ts for how soon a revocation is seen. */
  cache?: RegistryCache;
}

const toCachedKey = (row: KeyRow): CachedApiKey => ({
  id: row.id,
  tenantId: row.tenant_id,
  product: row.product,
  scopes: row.scopes,
  keyHash: row.key_hash,
  revoked: row.revoked_at !== null,
  lastUsedAt: row.last_used_at === null ? 0 : new Date(row.last_used_at).getTime(),
});

/**
 * Every failure is `{valid: false}` with no reason a guesser could use. A malformed or mistyped key fails on
 * its checksum before any store or cache read. A well-formed one is looked up by its public prefix in the cache,
 * else with one index lookup (which fills the cache); the hash is compared on every call either way.
 * `sql` is called only when the store has to be read.
 */
export async function verifyApiKey(sql: () => Promise<Sql>, candidate: unknown, options: VerifyOptions): Promise<ApiKeyVerify> {
  if (typeof candidate !== 'string') return INVALID;
  const parsed = parseApiKey(candidate);
  if (!parsed) return INVALID;
  const { cache } = options;
  let key = cache?.apiKey(parsed.prefix);
  let tenantStatus: string | undefined;
  if (!key) {
    const generation = cache?.generation() ?? 0;
    const { rows } = await (await sql()).query<KeyRow>({
      name: 'api_key_by_prefix',
      text: `select k.id, k.tenant_id, k.product, k.scopes, k.key_hash, k.revoked_at, k.last_used_at, t.status as tenant_status
               from api_keys k join tenants t on t.id = k.tenant_id where k.prefix = $1`,
      values: [parsed.prefix],
    });
    const row = rows[0];
    if (!row) return INVALID;
    key = toCachedKey(row);
    tenantStatus = row.tenant_status;
    cache?.putApiKey(parsed.prefix, key, generation);
  }
  if (!hashMatches(parsed.plaintext, key.keyHash) || key.revoked) return INVALID;
  if (tenantStatus === undefined) {
    let tenant = cache?.tenant(key.tenantId);
    if (!tenant) {
      const generation = cache?.generation() ?? 0;
      tenant = await loadTenantSnapshot(await sql(), { by: 'id', id: key.tenantId });
      if (!tenant) return INVALID;
      cache?.putTenant(tenant, generation);
    }
    tenantStatus = tenant.status;
  }
  if (!USABLE_TENANT_STATUSES.has(tenantStatus)) return INVALID;
  const now = Date.now();
  if (now - key.lastUsedAt > options.lastUsedResolutionSeconds * 1000) {
    // Marked at once, so the verifies that follow on this replica do not each mark it again.
    key.lastUsedAt = now;
    options.markUsed(key.id);
  }
  const result: ApiKeyVerify = { valid: true, tenant_id: key.tenantId, scopes: key.scopes };
  if (key.product) result.product = key.product;
  return result;
}
