import { ApiKeyCache } from './apiKeyCache.ts';
import { CacheValidity } from './cacheValidity.ts';
import { DirectoryCache } from './directoryCache.ts';
import { DocumentCache } from './documentCache.ts';
import { ListingCache } from './listingCache.ts';
import { TENANT_LISTING, apiKeyListing, invitationListing } from './listingNames.ts';
import { MemberListCache } from './memberListCache.ts';
import { MembershipGrantCache } from './membershipGrantCache.ts';
import { ProductClientCache } from './productClientCache.ts';
import { TenantCache } from './tenantCache.ts';

/**
 * In-process cache of what the hottest reads need, one part for each thing it holds: API keys by prefix (verify),
 * tenants with their entitlements (verify's tenant status, claims), users' membership grants (claims with a user id),
 * each tenant's member list (the members listing, its pages computed in memory), directories and their users' reads
 * (SCIM), single resources' answers (a tenant, its entitlements, the catalog) and listings' pages (the tenants', a
 * tenant's API keys and invitations). It holds no state another replica needs; it only saves reads.
 *
 * How long a change can go unseen (docs/reliability.md, "The stale-cache bound, and a replica cut off alone"):
 * - on the replica that made the change: not at all — its effects invalidate once its transaction committed;
 * - on other replicas: until PostgreSQL's NOTIFY from the tables' triggers arrives, see store/changeListener.ts;
 *   while that listener is not connected, or has not proven itself live within its liveness lease (a heartbeat
 *   answered), the cache is bypassed altogether, so a half-open connection that silently drops notifications stops
 *   the cache within the lease;
 * - in any case: at most `ttlMs` (CACHE_TTL_SECONDS), the bound should a notification ever be lost.
 *
 * When the store cannot be read (an outage), verify, claims and the members listing may answer from an entry younger
 * than `staleIfErrorMs` (CACHE_STALE_IF_ERROR_SECONDS), suspended or expired alike: an outage of the store is an
 * outage of every change too, except that another replica still reaching the store may revoke meanwhile
 * (docs/reliability.md).
 *
 * A load that raced an invalidation must not store what it read: loaders take `generation()` before their query
 * and pass it to the part's `put`, which drops the value when any invalidation happened in between (CacheValidity).
 * What a change makes stale is decided here, by the `invalidate*` methods, since one change may reach several parts.
 */

/** The cache's parts as the metrics name them. */
export type CachePart = 'api_key' | 'missing_api_key' | 'tenant' | 'tenant_document' | 'entitlements' | 'member' | 'member_list' | 'directory' | 'directory_read' | 'listing' | 'product_clients';

export interface RegistryCacheOptions {
  /** 0 disables the cache. */
  ttlMs: number;
  maxKeys?: number;
  maxTenants?: number;
  maxMissingKeys?: number;
  /** Tenants whose read's JSON is held. */
  maxTenantDocuments?: number;
  /** Users whose grants are held. */
  maxUsers?: number;
  /** Members held in the tenants' member lists, all lists together. */
  maxListedMembers?: number;
  /** What the SCIM reads held weigh, all directories together (bytes of their answers, roughly). */
  maxDirectoryReadBytes?: number;
  /** What the listings' pages held weigh, all listings together (bytes of their answers). */
  maxListingBytes?: number;
  /** How old an entry may be and still answer while the store cannot be read; 0: never. */
  staleIfErrorMs?: number;
  now?: () => number;
}

export class RegistryCache {
  readonly #validity: CacheValidity;
  readonly apiKeys: ApiKeyCache;
  readonly tenants: TenantCache;
  readonly documents: DocumentCache;
  readonly grants: MembershipGrantCache;
  readonly memberLists: MemberListCache;
  readonly directories: DirectoryCache;
  readonly listings: ListingCache;
  readonly productClients: ProductClientCache;

  constructor(options: RegistryCacheOptions) {
    this.#validity = new CacheValidity(options.ttlMs, options.ttlMs > 0 ? (options.staleIfErrorMs ?? 0) : 0, options.now ?? Date.now);
    // The default bounds fit, all full together, in what the old generation's cap leaves (platform/serviceProcessSettings.ts);
    // docs/performance.md has what each entry weighs. Pages above 2 KB are held as bytes, outside the heap.
    const maxTenants = options.maxTenants ?? 10_000;
    this.apiKeys = new ApiKeyCache(this.#validity, options.maxKeys ?? 25_000, options.maxMissingKeys ?? 20_000);
    this.tenants = new TenantCache(this.#validity, maxTenants);
    this.documents = new DocumentCache(this.#validity, options.maxTenantDocuments ?? 5_000);
    this.grants = new MembershipGrantCache(this.#validity, options.maxUsers ?? 15_000);
    this.memberLists = new MemberListCache(this.#validity, options.maxListedMembers ?? 10_000);
    this.directories = new DirectoryCache(this.#validity, maxTenants, options.maxDirectoryReadBytes ?? 24 * 1024 * 1024);
    this.listings = new ListingCache(this.#validity, options.maxListingBytes ?? 16 * 1024 * 1024);
    this.productClients = new ProductClientCache(this.#validity);
  }

  /**
   * False while disabled (TTL 0), suspended (the change listener is not connected) or past the listener's liveness
   * lease: every read goes to the store.
   */
  get active(): boolean {
    return this.#validity.active;
  }

  generation(): number {
    return this.#validity.generation;
  }

  invalidateApiKey(prefix: string): void {
    this.#validity.invalidated();
    this.apiKeys.forget(prefix);
  }

  /**
   * The tenant's status, plan or entitlements changed, or it went. Keys only hold the tenant id, so they stay; its
   * member list goes too, since a tenant deleted without members notifies no member change, and so do the tenants'
   * listing (the tenant may move in or out of a filter) and its own listings (a tenant gone answers 404).
   */
  invalidateTenant(id: string): void {
    this.#validity.invalidated();
    this.tenants.forget(id);
    this.documents.forgetTenant(id);
    this.memberLists.forget(id);
    this.listings.forget(TENANT_LISTING);
    this.listings.forget(apiKeyListing(id));
    this.listings.forget(invitationListing(id));
  }

  /** What a listing lists changed (a tenant made; a tenant's API key or invitation made, changed or gone). */
  invalidateListing(listing: string): void {
    this.#validity.invalidated();
    this.listings.forget(listing);
  }

  /** One of the user's memberships changed (its status, its roles; added or removed). */
  invalidateUser(userId: string): void {
    this.#validity.invalidated();
    this.grants.forget(userId);
  }

  /** One of the tenant's members changed (added, removed, its status, its roles or what the list shows of it). */
  invalidateMemberList(tenantId: string): void {
    this.#validity.invalidated();
    this.memberLists.forget(tenantId);
  }

  /** The directory, one of its users or one of its groups changed (its token, its state; what a SCIM read answers). */
  invalidateDirectory(id: string): void {
    this.#validity.invalidated();
    this.directories.forget(id);
  }

  /** A product of the catalog, or its clients, was added, changed or removed (a migration's or an operator's statement). */
  invalidateCatalog(): void {
    this.#validity.invalidated();
    this.documents.forgetCatalog();
    this.productClients.forget();
  }

  /** A role's permissions changed or a role went: any cached user may hold it, any tenant's member list show it. */
  invalidateAllMembers(): void {
    this.#validity.invalidated();
    this.grants.clear();
    this.memberLists.clear();
  }

  clear(): void {
    this.#validity.invalidated();
    for (const part of this.#parts()) part.clear();
  }

  /** How many entries each part holds, expired ones not yet swept included (for the metrics). */
  held(): Record<CachePart, number> {
    return {
      ...this.apiKeys.held(),
      ...this.tenants.held(),
      ...this.documents.held(),
      ...this.grants.held(),
      ...this.memberLists.held(),
      ...this.directories.held(),
      ...this.listings.held(),
      ...this.productClients.held(),
    };
  }

  /**
   * Forgets what can answer nothing any more, neither as fresh nor as stale-if-error: without it an entry stayed until
   * its bound pushed it out, so the memory held grew with every distinct key, tenant or page ever read, not with
   * those read lately (docs/performance.md). Nothing that can answer goes, so no generation changes.
   */
  sweep(): void {
    const now = this.#validity.now();
    for (const part of this.#parts()) part.sweep(now);
  }

  #parts(): { clear(): void; sweep(now: number): void }[] {
    return [this.apiKeys, this.tenants, this.documents, this.grants, this.memberLists, this.directories, this.listings, this.productClients];
  }

  /**
   * The change listener lost its connection: notifications may be missed, so serve nothing from memory, but keep what
   * is there for the parts' `stale`, the answer of last resort while the store cannot be read.
   */
  suspend(): void {
    this.#validity.suspend();
  }

  /**
   * The change listener is listening again; what was cached before may have changed meanwhile. `liveUntil` starts
   * its liveness lease, which `renewLiveness` extends with every answered heartbeat.
   */
  resume(liveUntil = Number.POSITIVE_INFINITY): void {
    this.clear();
    this.#validity.resume(liveUntil);
  }

  /**
   * The listener's connection answered: notifications sent before now have arrived. A lease that already ran out
   * means some may have been missed meanwhile, so the cache starts empty again.
   */
  renewLiveness(liveUntil: number): void {
    if (this.#validity.leaseLapsed) this.clear();
    this.#validity.renewLease(liveUntil);
  }
}
