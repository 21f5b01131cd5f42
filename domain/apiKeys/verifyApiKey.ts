import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApiKeyVerify } from '../schemas/apiKey.ts';
import { hashMatches, parseApiKey } from '../apiKeyFormat.ts';

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
  onBackgroundError: (error: unknown) => void;
}

/**
 * Every failure is `{valid: false}` with no reason a guesser could use. A malformed or mistyped key fails on
 * its checksum before any database read; a well-formed one costs one index lookup by its public prefix.
 */
export async function verifyApiKey(em: EntityManager, candidate: unknown, options: VerifyOptions): Promise<ApiKeyVerify> {
  if (typeof candidate !== 'string') return INVALID;
  const parsed = parseApiKey(candidate);
  if (!parsed) return INVALID;
  const rows = await em.execute<KeyRow[]>(
    `select k.id, k.tenant_id, k.product, k.scopes, k.key_hash, k.revoked_at, k.last_used_at, t.status as tenant_status
       from api_keys k join tenants t on t.id = k.tenant_id where k.prefix = ?`,
    [parsed.prefix],
  );
  const row = rows[0];
  if (!row || !hashMatches(parsed.plaintext, row.key_hash)) return INVALID;
  if (row.revoked_at || !USABLE_TENANT_STATUSES.has(row.tenant_status)) return INVALID;
  const staleBefore = Date.now() - options.lastUsedResolutionSeconds * 1000;
  if (!row.last_used_at || new Date(row.last_used_at).getTime() < staleBefore) {
    em.execute(
      `update api_keys set last_used_at = now() where id = ? and (last_used_at is null or last_used_at < now() - make_interval(secs => ?))`,
      [row.id, options.lastUsedResolutionSeconds],
    ).catch(options.onBackgroundError);
  }
  const result: ApiKeyVerify = { valid: true, tenant_id: row.tenant_id, scopes: row.scopes };
  if (row.product) result.product = row.product;
  return result;
}
