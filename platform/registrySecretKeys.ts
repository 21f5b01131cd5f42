import { join } from 'node:path';
import type { Logger } from './logger.ts';
import type { PayloadKey } from './temporal/payloadEncryptionCodec.ts';
import { developmentKeys, parsePayloadKeys } from './temporal/payloadKeys.ts';

/**
 * The keys of the registry's secrets at rest (platform/secretBox.ts), in TEMPORAL_PAYLOAD_KEYS' format. Set, they are
 * REGISTRY_SECRET_KEYS. Otherwise, on the embedded defaults (no DATABASE_URL: the embedded PostgreSQL, whose data
 * lives in DATA_DIR), a development key kept beside that data. A deployment on its own PostgreSQL must bring its keys:
 * the service refuses to start rather than store secrets under a key that lives only on one machine.
 */
export async function resolveRegistrySecretKeys(settings: { REGISTRY_SECRET_KEYS?: string; DATABASE_URL?: string; DATA_DIR: string }, log: Logger): Promise<PayloadKey[]> {
  if (settings.REGISTRY_SECRET_KEYS) return parsePayloadKeys(settings.REGISTRY_SECRET_KEYS, 'REGISTRY_SECRET_KEYS');
  if (settings.DATABASE_URL) {
    throw new Error('REGISTRY_SECRET_KEYS is required with DATABASE_URL: the secrets the registry stores (audit streams\' signing secrets) are encrypted with it (docs/security.md)');
  }
  return developmentKeys(join(settings.DATA_DIR, 'registry-secret-keys'), 'REGISTRY_SECRET_KEYS', 'the secrets stored in PostgreSQL', log);
}
