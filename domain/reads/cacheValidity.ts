import type { Entry } from './boundedTtlMap.ts';

/**
 * When what the registry cache holds may answer, shared by all its parts: its TTL, whether the change listener is
 * known live (a cache no listener feeds is live for good: tests, one replica), and the generation that any
 * invalidation moves on. A load takes the generation before its query and stores what it read only if nothing was
 * invalidated in between.
 */
export class CacheValidity {
  /** 0 disables the cache. */
  readonly ttlMs: number;
  /** How old an entry may be and still answer while the store cannot be read; 0: never. */
  readonly staleIfErrorMs: number;
  readonly now: () => number;
  #generation = 0;
  #suspended = false;
  /** Until when the change listener is known live (ms). */
  #liveUntil = Number.POSITIVE_INFINITY;

  constructor(ttlMs: number, staleIfErrorMs: number, now: () => number) {
    this.ttlMs = ttlMs;
    this.staleIfErrorMs = staleIfErrorMs;
    this.now = now;
  }

  /** False while disabled (TTL 0), suspended or past the listener's liveness lease: every read goes to the store. */
  get active(): boolean {
    return this.ttlMs > 0 && !this.#suspended && this.now() < this.#liveUntil;
  }

  get generation(): number {
    return this.#generation;
  }

  /** Whether a value loaded at `loadedAtGeneration` may be stored: the cache answers and nothing changed meanwhile. */
  accepts(loadedAtGeneration: number): boolean {
    return this.active && loadedAtGeneration === this.#generation;
  }

  /** Something changed: a load that began before may have read it as it was. */
  invalidated(): void {
    this.#generation += 1;
  }

  suspend(): void {
    this.#suspended = true;
    this.#generation += 1;
  }

  /** The listener is listening again, known live until `liveUntil`. */
  resume(liveUntil: number): void {
    this.#liveUntil = liveUntil;
    this.#suspended = false;
  }

  /** Whether the listener's liveness lease ran out: notifications may have been missed since. */
  get leaseLapsed(): boolean {
    return this.now() >= this.#liveUntil;
  }

  renewLease(liveUntil: number): void {
    this.#liveUntil = liveUntil;
  }

  /** The entry's value if it was stored within staleIfErrorMs, whatever the cache's state: for when the store read failed. */
  staleIfError<T>(entry: Entry<T> | undefined): T | undefined {
    return entry && this.now() - entry.storedAt <= this.staleIfErrorMs ? entry.value : undefined;
  }
}
