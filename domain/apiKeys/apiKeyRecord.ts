/** An API key as the registry keeps it, without its hash (which never leaves the store but for verify). */
export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  product: string | null;
  name: string;
  scopes: string[];
  /** The public part of the key (`trk_<public id>`), under which it is looked up and cached. */
  prefix: string;
  createdBy: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** After this instant the key no longer verifies; a rotation moves it to the end of the grace period. */
  expiresAt: Date | null;
  /** The key this one replaced by rotation. */
  rotatedFrom: string | null;
  createdAt: Date;
}

/** A key to be stored: the record and the SHA-256 of its plaintext. */
export interface NewApiKey extends ApiKeyRecord {
  keyHash: Buffer;
}

/** The record of a new key as answered to its creator: never its hash. */
export function withoutHash(key: NewApiKey): ApiKeyRecord {
  const { keyHash: _hash, ...record } = key;
  return record;
}
