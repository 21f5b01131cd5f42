import type { CacheValidity } from './cacheValidity.ts';
import { ScopedReads } from './scopedReads.ts';

/**
 * Listings' pages as they answer them (domain/reads/keptListing.ts), by listing (domain/reads/listingNames.ts: the
 * tenants', a tenant's API keys or invitations) and query; a listing's go whole at any change of what it lists.
 */
export class ListingCache {
  readonly #validity: CacheValidity;
  readonly #pages: ScopedReads;
  /** Look-ups answered from memory or not, for the metrics. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(validity: CacheValidity, maxBytes: number) {
    this.#validity = validity;
    // One listing at most half of it: the tenants' listing is one, whatever its filters.
    this.#pages = new ScopedReads(maxBytes, Math.floor(maxBytes / 2));
  }

  /** A page of `listing` answered lately for `query` (its filters, cursor and limit), still fresh. */
  page(listing: string, query: string): string | Buffer | undefined {
    const page = this.#validity.active ? (this.#pages.get(listing, query, this.#validity.now()) as string | Buffer | undefined) : undefined;
    if (page !== undefined) this.stats.hits += 1;
    else this.stats.misses += 1;
    return page;
  }

  put(listing: string, query: string, answer: string | Buffer, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#pages.set(listing, query, answer, now + this.#validity.ttlMs, now);
  }

  /** Every page of the listing. */
  forget(listing: string): void {
    this.#pages.forget(listing);
  }

  sweep(now: number): void {
    this.#pages.sweep(now);
  }

  clear(): void {
    this.#pages.clear();
  }

  held(): { listing: number } {
    return { listing: this.#pages.size };
  }
}
