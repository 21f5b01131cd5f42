import type { ApiKeyVerify } from '../schemas/apiKey.ts';
import { hashMatches, parseApiKey } from '../apiKeyFormat.ts';
import type { RegistryCache } from '../reads/registryCache.ts';
import type { CachedApiKey } from '../reads/apiKeyCache.ts';
import type { CachedTenant } from '../reads/tenantCache.ts';
import type { ApiKeyRepository } from './apiKeyRepository.ts';
import { keyVerdict, type VerifyRequirements } from './keyVerdict.ts';
import { readOrStale } from '../reads/readOrStale.ts';
import { isoTimestamp } from '../isoTimestamp.ts';
import { reaches } from '../access/tenantReach.ts';
import type { Caller } from '../access/caller.ts';

const NOT_FOUND: ApiKeyVerify = { valid: false, code: 'NOT_FOUND' };

export interface VerifyDependencies {
  keys: Pick<ApiKeyRepository, 'findVerifiable'>;
  /** The tenant behind a key served from the cache (its status decides TENANT_INACTIVE). */
  tenantSnapshot: (tenantId: string) => Promise<CachedTenant | undefined>;
  /** Keys by prefix and tenants; see domain/reads/registryCache.ts for how soon a revocation or rotation is seen. */
  cache?: RegistryCache;
  /** last_used_at is advanced at most once per this many seconds per key, so verify is a read on the hot path. */
  lastUsedResolutionSeconds: number;
  /** Writes last_used_at of a key in the background (LastUsedMarks). */
  markUsed: (keyId: string) => void;
}

/**
 * The verdict on a presented key, always as a value (the route answers 200 whatever happens). A malformed or
 * mistyped key is NOT_FOUND on its checksum before any store or cache read. A well-formed one is looked up by its
 * public prefix in the cache, else with one indexed read that fills the cache, expired keys included, so a known key
 * never costs a read, nor does a prefix just found to have no key; time-based rules are judged on every call. Nothing about the key is told before its hash
 * matched: whoever knows only a prefix learns NOT_FOUND.
 */
/** `caller`: what the asking product's token binds it to; a key of a tenant it may not reach is NOT_FOUND. */
export async function verifyApiKey(body: unknown, deps: VerifyDependencies, caller?: Caller): Promise<ApiKeyVerify> {
  const wants = (typeof body === 'object' && body !== null ? body : {}) as VerifyRequirements & { key?: unknown };
  if (typeof wants.key !== 'string') return NOT_FOUND;
  const parsed = parseApiKey(wants.key);
  if (!parsed) return NOT_FOUND;
  const { cache } = deps;
  if (cache?.apiKeys.knownMissing(parsed.prefix)) return NOT_FOUND;
  let key = cache?.apiKeys.get(parsed.prefix);
  let tenantStatus: string | undefined;
  if (!key) {
    const generation = cache?.generation() ?? 0;
    const found = await readOrStale<{ key: CachedApiKey; tenantStatus?: string } | undefined>(
      () => deps.keys.findVerifiable(parsed.prefix),
      () => {
        const stale = cache?.apiKeys.stale(parsed.prefix);
        return stale && { key: stale };
      },
    );
    if (!found.value) {
      cache?.apiKeys.putMissing(parsed.prefix, generation);
      return NOT_FOUND;
    }
    ({ key, tenantStatus } = found.value);
    if (!found.stale) cache?.apiKeys.put(parsed.prefix, key, generation);
  }
  if (!hashMatches(parsed.plaintext, key.keyHash)) return NOT_FOUND;
  if (caller && !reaches(caller.reach, key.tenantId)) return NOT_FOUND;
  if (tenantStatus === undefined) {
    let tenant = cache?.tenants.get(key.tenantId);
    if (!tenant) {
      const generation = cache?.generation() ?? 0;
      const tenantId = key.tenantId;
      const read = await readOrStale(() => deps.tenantSnapshot(tenantId), () => cache?.tenants.stale({ by: 'id', id: tenantId }));
      if (!read.value) return NOT_FOUND;
      tenant = read.value;
      if (!read.stale) cache?.tenants.put(tenant, generation);
    }
    tenantStatus = tenant.status;
  }
  const now = Date.now();
  const code = keyVerdict(key, tenantStatus, wants, now, caller?.boundProduct);
  if (code !== 'VALID') return { valid: false, code };
  if (now - key.lastUsedAt > deps.lastUsedResolutionSeconds * 1000) {
    // Marked at once, so the verifies that follow on this replica do not each mark it again.
    key.lastUsedAt = now;
    deps.markUsed(key.id);
  }
  const result: ApiKeyVerify = {
    valid: true,
    code,
    key_id: key.id,
    tenant_id: key.tenantId,
    scopes: key.scopes,
    expires_at: key.expiresAt === null ? null : isoTimestamp(new Date(key.expiresAt)),
  };
  if (key.product) result.product = key.product;
  return result;
}
