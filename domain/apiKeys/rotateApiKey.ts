import { conflict, notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { withoutHash, type ApiKeyRecord } from './apiKeyRecord.ts';
import type { ApiKeyChange, LockedApiKey } from './apiKeyRepository.ts';
import type { RegistryContext } from '../registryContext.ts';
import { EVERY_TENANT, requireReach, type TenantReach } from '../access/tenantReach.ts';
import { newApiKey } from './createApiKey.ts';
import { apiKeyListing } from '../reads/listingNames.ts';

export interface Rotation {
  successor: ApiKeyRecord;
  plaintext: string;
  /** The old key's prefix, under which caches hold it. */
  oldPrefix: string;
}

/**
 * The rotation rule: a live key gets a successor with the same tenant, product, scopes, name and expiry (a rotation
 * renews the secret, never the access), and its own end moves to the end of the grace period (at once for 0), never
 * later than it already was. A revoked or expired key, or one a rotation already replaced, cannot be rotated: only
 * the newest key of a lineage can.
 */
export function planRotation(key: LockedApiKey, now: Date, graceSeconds: number): ApiKeyChange<Rotation> {
  if (key.revokedAt) throw conflict('a revoked API key cannot be rotated');
  if (key.expiresAt && key.expiresAt <= now) throw conflict('an expired API key cannot be rotated');
  if (key.successorId) throw conflict(`the API key was already rotated; rotate its successor ${key.successorId}`);
  const { key: successor, plaintext } = newApiKey(
    { tenantId: key.tenantId, product: key.product, name: key.name, scopes: key.scopes, createdBy: key.createdBy, expiresAt: key.expiresAt, rotatedFrom: key.id },
    now,
  );
  const graceEnd = new Date(now.getTime() + graceSeconds * 1000);
  const oldKeyEnds = key.expiresAt && key.expiresAt < graceEnd ? key.expiresAt : graceEnd;
  return {
    expiresAt: oldKeyEnds,
    successor,
    event: {
      action: 'api_key.rotated',
      tenant_id: key.tenantId,
      product: key.product ?? undefined,
      target_id: key.id,
      target_type: 'api_key',
      target_name: key.name,
      metadata: { prefix: key.prefix, new_key_id: successor.id, new_prefix: successor.prefix, grace_seconds: graceSeconds, old_key_expires_at: oldKeyEnds.toISOString() },
    },
    result: { successor: withoutHash(successor), plaintext, oldPrefix: key.prefix },
  };
}

/** Once committed, the old key's new end holds on this replica at once (on the others when they hear the NOTIFY). */
export async function rotateApiKey(
  { stores, effects }: RegistryContext,
  id: string,
  graceSeconds: number,
  meta: RequestMeta,
  reach: TenantReach = EVERY_TENANT,
): Promise<Rotation> {
  const rotation = await stores.apiKeys.change(id, meta, (key, now) => {
    // A key of a tenant the caller may not reach is answered as no key at all, and nothing is written.
    requireReach(reach, key.tenantId, 'API key');
    return planRotation(key, now, graceSeconds);
  });
  if (!rotation) throw notFound('API key');
  effects.follow({ staleApiKeys: [rotation.oldPrefix], staleListings: [apiKeyListing(rotation.successor.tenantId)] });
  return rotation;
}
