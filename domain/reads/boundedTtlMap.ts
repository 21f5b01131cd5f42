/** A value and its times: when it stops answering, and when it was stored (for stale-if-error). */
export interface Entry<T> {
  value: T;
  expiresAt: number;
  storedAt: number;
}

/**
 * A TTL map with a size bound: the oldest insertion goes first, which with one TTL is also the first to expire. The
 * bound is on the entries' weights (one each unless `weigh` says otherwise).
 */
export class BoundedTtlMap<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
  readonly #max: number;
  readonly #weigh: (value: V) => number;
  #weight = 0;

  constructor(max: number, weigh: (value: V) => number = () => 1) {
    this.#max = max;
    this.#weigh = weigh;
  }

  /** The entry and when it was stored, expired or not, without removing it. */
  peek(key: K): Entry<V> | undefined {
    return this.#entries.get(key);
  }

  /**
   * The value while fresh. An expired entry stays for `peek` (stale-if-error answers it when the read that follows
   * this miss fails) until `sweep` or the bound forgets it.
   */
  get(key: K, now: number): V | undefined {
    const entry = this.#entries.get(key);
    return entry && entry.expiresAt > now ? entry.value : undefined;
  }

  set(key: K, value: V, expiresAt: number, storedAt: number): void {
    this.delete(key);
    const weight = this.#weigh(value);
    if (weight > this.#max) return;
    while (this.#entries.size > 0 && this.#weight + weight > this.#max) this.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, { value, expiresAt, storedAt });
    this.#weight += weight;
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#weight -= this.#weigh(entry.value);
  }

  /**
   * Forgets the entries that can answer nothing any more: expired and stored more than `staleMs` ago (past what
   * stale-if-error may answer). Entries are in the order they were set, so the walk stops at the first that stays.
   */
  sweep(now: number, staleMs: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt > now || now - entry.storedAt <= staleMs) return;
      this.delete(key);
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The values held, expired ones not yet swept included. */
  *values(): IterableIterator<V> {
    for (const entry of this.#entries.values()) yield entry.value;
  }
}
