import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { ApiKeyRecord, NewApiKey } from './apiKeyRecord.ts';

/** What verify needs of a key, read by its prefix; times in ms since the epoch so a cached copy is cheap to judge. */
export interface VerifiableKey {
  id: string;
  tenantId: string;
  product: string | null;
  scopes: string[];
  keyHash: Buffer;
  revoked: boolean;
  expiresAt: number | null;
  /** 0 when never used. Advanced locally when this replica marks the key used. */
  lastUsedAt: number;
}

/** A key read under a row lock, with whether a rotation already replaced it. */
export interface LockedApiKey extends ApiKeyRecord {
  successorId: string | null;
}

/** What a change of one key writes, decided by a domain rule and written by the repository in one transaction. */
export interface ApiKeyChange<T> {
  revokedAt?: Date;
  expiresAt?: Date;
  /** A key inserted in the same transaction (rotation). */
  successor?: NewApiKey;
  event?: AuditAppend;
  result: T;
}

/** The API keys aggregate's store (implemented in store/postgresApiKeyRepository.ts, faked in tests). */
export interface ApiKeyRepository {
  /**
   * Newest first, revoked and expired keys included, each as the API's ApiKey JSON text (toApiKey's document, byte
   * for byte); undefined when there is no such tenant.
   */
  listOfTenant(tenantId: string): Promise<string[] | undefined>;
  /** Inserts the key with its audit event atomically; false (nothing written) when the tenant does not exist. */
  insert(key: NewApiKey, event: AuditAppend, meta: RequestMeta): Promise<boolean>;
  /**
   * Locks the key, lets `decide` (a pure rule) say what to write, and writes it with its audit event in one
   * transaction; a rule that throws writes nothing. Undefined when there is no such key.
   */
  change<T>(id: string, meta: RequestMeta, decide: (key: LockedApiKey, now: Date) => ApiKeyChange<T>): Promise<T | undefined>;
  /** The verify hot path's one indexed read: the key and its tenant's status. */
  findVerifiable(prefix: string): Promise<{ key: VerifiableKey; tenantStatus: string } | undefined>;
  /** Advances last_used_at of these keys unless it moved within `resolutionSeconds`. */
  markUsed(ids: string[], resolutionSeconds: number): Promise<void>;
}
