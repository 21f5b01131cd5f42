import type { TenantMemberList } from '../members/tenantMemberList.ts';
import { BoundedTtlMap } from './boundedTtlMap.ts';
import type { CacheValidity } from './cacheValidity.ts';

/** A tenant's members as the listing reads them, or that the tenant has too many to hold (its pages come from the store). */
export type CachedMemberList = TenantMemberList | 'tooMany';

/** The members listing's tenants: each tenant's whole member list, whose pages are computed in memory. */
export class MemberListCache {
  readonly #validity: CacheValidity;
  /** Bounded by the members held over all lists (a list weighs its size). */
  readonly #lists: BoundedTtlMap<string, CachedMemberList>;
  /**
   * tenant id → the read of its whole member list running now, and the generation it started at: requests that come
   * while no invalidation happened since share it instead of reading the list again (domain/members/listMembers.ts).
   */
  readonly reads = new Map<string, { generation: number; list: Promise<CachedMemberList> }>();
  /** Look-ups answered from memory or not (a tenant with too many members counts as a miss), for the metrics. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(validity: CacheValidity, maxListedMembers: number) {
    this.#validity = validity;
    this.#lists = new BoundedTtlMap(maxListedMembers, (list) => (list === 'tooMany' ? 1 : Math.max(1, list.size)));
  }

  /** The tenant's members for the listing, or that it has too many to hold. */
  get(tenantId: string): CachedMemberList | undefined {
    const list = this.#validity.active ? this.#lists.get(tenantId, this.#validity.now()) : undefined;
    if (list !== undefined && list !== 'tooMany') this.stats.hits += 1;
    else this.stats.misses += 1;
    return list;
  }

  put(tenantId: string, list: CachedMemberList, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#lists.set(tenantId, list, now + this.#validity.ttlMs, now);
  }

  /** The tenant's member list stored within staleIfErrorMs: for when the store read failed. */
  stale(tenantId: string): TenantMemberList | undefined {
    const list = this.#validity.staleIfError(this.#lists.peek(tenantId));
    return list === 'tooMany' ? undefined : list;
  }

  forget(tenantId: string): void {
    this.#lists.delete(tenantId);
  }

  sweep(now: number): void {
    this.#lists.sweep(now, this.#validity.staleIfErrorMs);
  }

  clear(): void {
    this.#lists.clear();
  }

  held(): { member_list: number } {
    return { member_list: this.#lists.size };
  }
}
