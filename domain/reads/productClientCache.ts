import type { Entry } from './boundedTtlMap.ts';
import type { CacheValidity } from './cacheValidity.ts';
import type { ProductClients } from '../signIn/productClients.ts';

/** Every product's clients, by client id, for the claims path's sign-in decision: one entry, the same for every caller. */
export class ProductClientCache {
  readonly #validity: CacheValidity;
  #clients: Entry<ProductClients> | undefined;

  constructor(validity: CacheValidity) {
    this.#validity = validity;
  }

  get(): ProductClients | undefined {
    if (!this.#validity.active) return undefined;
    const entry = this.#clients;
    return entry && entry.expiresAt > this.#validity.now() ? entry.value : undefined;
  }

  put(clients: ProductClients, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#clients = { value: clients, expiresAt: now + this.#validity.ttlMs, storedAt: now };
  }

  /** The clients stored within staleIfErrorMs: for when the store read failed. */
  stale(): ProductClients | undefined {
    return this.#validity.staleIfError(this.#clients);
  }

  forget(): void {
    this.#clients = undefined;
  }

  sweep(now: number): void {
    const entry = this.#clients;
    if (entry && entry.expiresAt <= now && now - entry.storedAt > this.#validity.staleIfErrorMs) this.#clients = undefined;
  }

  clear(): void {
    this.#clients = undefined;
  }

  held(): { product_clients: number } {
    return { product_clients: this.#clients ? 1 : 0 };
  }
}
