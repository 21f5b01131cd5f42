import type { MembershipGrant } from '../members/memberRecord.ts';
import { BoundedTtlMap } from './boundedTtlMap.ts';
import type { CacheValidity } from './cacheValidity.ts';

/** The claims path's users: each user's grants in every tenant; an empty list (a user that is no member) saves its read too. */
export class MembershipGrantCache {
  readonly #validity: CacheValidity;
  readonly #grants: BoundedTtlMap<string, MembershipGrant[]>;
  /** Look-ups answered from memory or not, for the metrics. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(validity: CacheValidity, maxUsers: number) {
    this.#validity = validity;
    this.#grants = new BoundedTtlMap(maxUsers);
  }

  /** The user's grants in every tenant (empty: a member of none). */
  get(userId: string): MembershipGrant[] | undefined {
    const grants = this.#validity.active ? this.#grants.get(userId, this.#validity.now()) : undefined;
    if (grants) this.stats.hits += 1;
    else this.stats.misses += 1;
    return grants;
  }

  put(userId: string, grants: MembershipGrant[], loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#grants.set(userId, grants, now + this.#validity.ttlMs, now);
  }

  /** The user's grants stored within staleIfErrorMs: for when the store read failed. */
  stale(userId: string): MembershipGrant[] | undefined {
    return this.#validity.staleIfError(this.#grants.peek(userId));
  }

  forget(userId: string): void {
    this.#grants.delete(userId);
  }

  sweep(now: number): void {
    this.#grants.sweep(now, this.#validity.staleIfErrorMs);
  }

  clear(): void {
    this.#grants.clear();
  }

  held(): { member: number } {
    return { member: this.#grants.size };
  }
}
