import { BoundedTtlMap, type Entry } from './boundedTtlMap.ts';
import { keptAnswerBytes } from './keptAnswer.ts';

/** A scope's reads by query, and what they weigh together. */
interface ReadsOfScope {
  reads: Map<string, Entry<unknown>>;
  bytes: number;
}

/**
 * What a read weighs: an answer its bytes, any other value (a record) about a kilobyte, each with its entry and key.
 * By bytes, not by count: a full page of users weighs far more than a record, so a count bound let one caller fill
 * the memory with distinct pages.
 */
const readWeight = (value: unknown) => (Buffer.isBuffer(value) || typeof value === 'string' ? keptAnswerBytes(value) : 1_024) + 256;

/**
 * Reads answered lately, by scope (what one change makes stale together: a directory, a tenant's API keys) and by
 * query within it. Bounded by weight over all scopes, and each scope to a share of that, its oldest reads going first,
 * so one caller's distinct queries cannot push out everyone else's.
 */
export class ScopedReads {
  readonly #scopes: BoundedTtlMap<string, ReadsOfScope>;
  readonly #maxBytesOfScope: number;

  constructor(maxBytes: number, maxBytesOfScope: number) {
    this.#scopes = new BoundedTtlMap(maxBytes, (held) => Math.max(1, held.bytes));
    this.#maxBytesOfScope = Math.max(1, Math.min(maxBytes, maxBytesOfScope));
  }

  get(scope: string, query: string, now: number): unknown {
    const entry = this.#scopes.get(scope, now)?.reads.get(query);
    return entry && entry.expiresAt > now ? entry.value : undefined;
  }

  set(scope: string, query: string, value: unknown, expiresAt: number, now: number): void {
    // A scope past its expiry has only expired reads (it expires with its newest): it starts afresh rather than
    // carrying their weight until its share pushes them out.
    const kept = this.#scopes.peek(scope);
    const held = kept && kept.expiresAt > now ? kept.value : { reads: new Map<string, Entry<unknown>>(), bytes: 0 };
    // Out of the map while it changes (the map weighs it again when it is set back), the scope's oldest reads going
    // first past its share.
    this.#scopes.delete(scope);
    const forget = (key: string, entry: Entry<unknown>) => {
      held.reads.delete(key);
      held.bytes -= readWeight(entry.value);
    };
    const prior = held.reads.get(query);
    if (prior) forget(query, prior);
    const weight = readWeight(value);
    for (const [key, entry] of held.reads) {
      if (held.bytes + weight <= this.#maxBytesOfScope) break;
      forget(key, entry);
    }
    held.reads.set(query, { value, expiresAt, storedAt: now });
    held.bytes += weight;
    this.#scopes.set(scope, held, expiresAt, now);
  }

  /** Every read of the scope. */
  forget(scope: string): void {
    this.#scopes.delete(scope);
  }

  /** The reads held over all scopes, expired ones not yet swept included. */
  get size(): number {
    let reads = 0;
    for (const held of this.#scopes.values()) reads += held.reads.size;
    return reads;
  }

  /** Forgets the scopes whose every read has expired (a scope expires with its newest read). */
  sweep(now: number): void {
    this.#scopes.sweep(now, 0);
  }

  clear(): void {
    this.#scopes.clear();
  }
}
