import type { VerifiableKey } from '../apiKeys/apiKeyRepository.ts';
import { BoundedTtlMap } from './boundedTtlMap.ts';
import type { CacheValidity } from './cacheValidity.ts';

/** A key as verify judges it; the cache holds revoked and expired keys too, so knowing them costs no read. */
export type CachedApiKey = VerifiableKey;

/** Verify's keys by prefix, and the prefixes no key has. */
export class ApiKeyCache {
  readonly #validity: CacheValidity;
  readonly #keys: BoundedTtlMap<string, CachedApiKey>;
  /**
   * Prefixes no key has (verify's negative cache): a checksummed random key is free to make, and without this each
   * one would cost a read. A prefix is 80 random bits drawn at creation, so no key made later can have one of these.
   */
  readonly #missing: BoundedTtlMap<string, true>;
  /** Look-ups answered from memory or not, for the metrics (plain counters: read when scraped, free on the hot path). */
  readonly stats = { hits: 0, misses: 0 };

  constructor(validity: CacheValidity, maxKeys: number, maxMissing: number) {
    this.#validity = validity;
    this.#keys = new BoundedTtlMap(maxKeys);
    this.#missing = new BoundedTtlMap(maxMissing);
  }

  get(prefix: string): CachedApiKey | undefined {
    const key = this.#validity.active ? this.#keys.get(prefix, this.#validity.now()) : undefined;
    if (key) this.stats.hits += 1;
    else this.stats.misses += 1;
    return key;
  }

  /** True when a recent read found no key with this prefix. */
  knownMissing(prefix: string): boolean {
    return this.#validity.active && this.#missing.get(prefix, this.#validity.now()) === true;
  }

  put(prefix: string, key: CachedApiKey, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#keys.set(prefix, key, now + this.#validity.ttlMs, now);
  }

  putMissing(prefix: string, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#missing.set(prefix, true, now + this.#validity.ttlMs, now);
  }

  /** The key stored within staleIfErrorMs: for when the store read failed. */
  stale(prefix: string): CachedApiKey | undefined {
    return this.#validity.staleIfError(this.#keys.peek(prefix));
  }

  forget(prefix: string): void {
    this.#keys.delete(prefix);
    this.#missing.delete(prefix);
  }

  sweep(now: number): void {
    this.#keys.sweep(now, this.#validity.staleIfErrorMs);
    this.#missing.sweep(now, this.#validity.staleIfErrorMs);
  }

  clear(): void {
    this.#keys.clear();
    this.#missing.clear();
  }

  /** Entries held, expired ones not yet swept included (for the metrics). */
  held(): { api_key: number; missing_api_key: number } {
    return { api_key: this.#keys.size, missing_api_key: this.#missing.size };
  }
}
