import { BoundedTtlMap, type Entry } from './boundedTtlMap.ts';
import { ScopedReads } from './scopedReads.ts';
import { TENANT_LISTING, apiKeyListing, invitationListing } from './keptListing.ts';
import type { VerifiableKey } from '../apiKeys/apiKeyRepository.ts';
import type { MembershipGrant } from '../members/memberRecord.ts';
import type { TenantMemberList } from '../members/tenantMemberList.ts';
import type { DirectoryRecord } from '../directories/directoryRecord.ts';

/**
 * In-process cache of what the two hottest read paths need: API keys by prefix (verify), tenants with their
 * entitlements (verify's tenant status, claims) and users' membership grants (claims with a user id); of the
 * members listing: each tenant's members, whose pages are computed in memory; and of the SCIM endpoint: each
 * directory's record (its token hashes) and its users' reads answered lately, by their query; of the tenants' listing
 * and each tenant's API keys and invitations: their pages answered lately (issue 40). It holds no state another
 * replica needs; it only saves reads.
 *
 * How long a change can go unseen (docs/performance.md, "Caches and revocation"):
 * - on the replica that made the change: not at all — the route invalidates after its transaction committed;
 * - on other replicas: until PostgreSQL's NOTIFY from the tables' triggers arrives (milliseconds), see
 *   store/changeListener.ts; while that listener is not connected, or has not proven itself live within its
 *   liveness lease (a heartbeat answered), the cache is bypassed altogether, so a half-open connection that
 *   silently drops notifications stops the cache within the lease (1 s);
 * - in any case: at most `ttlMs` (CACHE_TTL_SECONDS), the bound should a notification ever be lost.
 *
 * When the store cannot be read (an outage), verify, claims and the members listing may answer from an entry younger
 * than `staleIfErrorMs` (CACHE_STALE_IF_ERROR_SECONDS), suspended or expired alike: an outage of the store is an
 * outage of every change too, except that another replica still reaching the store may revoke meanwhile
 * (docs/reliability.md).
 *
 * A load that raced an invalidation must not store what it read: loaders take `generation()` before their query
 * and pass it to `put*`, which drops the value when any invalidation happened in between.
 */

/** A key as verify judges it; the cache holds revoked and expired keys too, so knowing them costs no read. */
export type CachedApiKey = VerifiableKey;

export interface CachedTenant {
  id: string;
  slug: string;
  plan: string;
  status: string;
  entitlements: { product: string; enabled: boolean; expiresAt: number | null }[];
}

/** A tenant as GET /v1/tenants/{id} and by-slug answer it: its id and slug, and the Tenant body's JSON text. */
export interface TenantDocument {
  id: string;
  slug: string;
  json: string;
}

/** A tenant's members as the listing reads them, or that the tenant has too many to hold (its pages come from the store). */
export type CachedMemberList = TenantMemberList | 'tooMany';

/** The cache's parts as the metrics name them. */
export type CachePart = 'api_key' | 'missing_api_key' | 'tenant' | 'tenant_document' | 'entitlements' | 'member' | 'member_list' | 'directory' | 'directory_read' | 'listing';

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
  readonly ttlMs: number;
  readonly staleIfErrorMs: number;
  readonly #now: () => number;
  readonly #keys: BoundedTtlMap<string, CachedApiKey>;
  /**
   * Prefixes no key has (verify's negative cache): a checksummed random key is free to make, and without this each
   * one would cost a read. A prefix is 80 random bits drawn at creation, so no key made later can have one of these.
   */
  readonly #missingKeys: BoundedTtlMap<string, true>;
  readonly #tenants: BoundedTtlMap<string, CachedTenant>;
  /** slug → tenant id; a hit is confirmed against the tenant's own slug. */
  readonly #slugs: BoundedTtlMap<string, string>;
  /** Tenants as their reads answer them, by id; by slug through #documentSlugs. */
  readonly #documents: BoundedTtlMap<string, TenantDocument>;
  readonly #documentSlugs: BoundedTtlMap<string, string>;
  /** Tenants' entitlements as their listing answers them (the TenantProductList body's JSON), by tenant id. */
  readonly #entitlementDocuments: BoundedTtlMap<string, string>;
  /** user id → its grants in every tenant; an empty list (a user that is no member) saves its read too. */
  readonly #grants: BoundedTtlMap<string, MembershipGrant[]>;
  /** tenant id → its members for the listing, bounded by the members held (a list weighs its size). */
  readonly #memberLists: BoundedTtlMap<string, CachedMemberList>;
  readonly #directories: BoundedTtlMap<string, DirectoryRecord>;
  /** By directory id, its reads by query; the whole directory's go at its next change. */
  readonly #directoryReads: ScopedReads;
  /**
   * Listings' pages as they answer them (domain/reads/keptListing.ts), by listing (the tenants', a tenant's API keys or
   * invitations) and query; a listing's go whole at any change of what it lists.
   */
  readonly #listings: ScopedReads;
  /** The catalog as its listing answers it (the CatalogList body's JSON, text or bytes): the same for every caller. */
  #catalogDocument: Entry<string | Buffer> | undefined;
  /**
   * tenant id → the read of its whole member list running now, and the generation it started at: requests that come
   * while no invalidation happened since share it instead of reading the list again (domain/members/listMembers.ts).
   */
  readonly memberListReads = new Map<string, { generation: number; list: Promise<CachedMemberList> }>();
  #generation = 0;
  #suspended = false;
  /** Lookups answered from memory or not, for the metrics (plain counters: read when scraped, free on the hot path). */
  readonly stats = {
    apiKeyHits: 0,
    apiKeyMisses: 0,
    tenantHits: 0,
    tenantMisses: 0,
    memberHits: 0,
    memberMisses: 0,
    memberListHits: 0,
    memberListMisses: 0,
    listingHits: 0,
    listingMisses: 0,
  };
  /** Until when the change listener is known live (ms); unbounded for a cache no listener feeds (tests, one replica). */
  #liveUntil = Number.POSITIVE_INFINITY;

  constructor(options: RegistryCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.staleIfErrorMs = options.ttlMs > 0 ? (options.staleIfErrorMs ?? 0) : 0;
    this.#now = options.now ?? Date.now;
    // The bounds fit what the old generation's cap leaves (platform/serviceProcessSettings.ts), by sizes measured in a
    // heap snapshot of the benchmark's API (docs/performance.md): every one full is ~90 MB of heap at worst, ~60 MB
    // when the listings' and SCIM's pages are above 2 KB (held as bytes, outside the heap).
    // ~0.75 KB a key with its prefix: 25,000 keys (more than a replica verifies within one TTL in a sane deployment) ~19 MB.
    this.#keys = new BoundedTtlMap(options.maxKeys ?? 25_000);
    // ~150 bytes a prefix: a flood of made-up keys costs at most ~3 MB, then the oldest are forgotten.
    this.#missingKeys = new BoundedTtlMap(options.maxMissingKeys ?? 20_000);
    // ~0.65 KB a tenant (its record and its slug's entry): 10,000 are ~6.5 MB.
    this.#tenants = new BoundedTtlMap(options.maxTenants ?? 10_000);
    this.#slugs = new BoundedTtlMap(options.maxTenants ?? 10_000);
    // ~0.65 KB a tenant (its JSON, id and slug, the entries of both maps): 5,000 are ~3 MB; their entitlements ~1.5 MB.
    this.#documents = new BoundedTtlMap(options.maxTenantDocuments ?? 5_000);
    this.#documentSlugs = new BoundedTtlMap(options.maxTenantDocuments ?? 5_000);
    this.#entitlementDocuments = new BoundedTtlMap(options.maxTenantDocuments ?? 5_000);
    // ~0.7 KB a user with one membership, its roles and their permissions: 15,000 users are ~10 MB.
    this.#grants = new BoundedTtlMap(options.maxUsers ?? 15_000);
    // ~0.7 KB a member (its answer's JSON, its lowered e-mail and name; docs/performance.md): 10,000 members are ~7 MB.
    this.#memberLists = new BoundedTtlMap(options.maxListedMembers ?? 10_000, (list) => (list === 'tooMany' ? 1 : Math.max(1, list.size)));
    this.#directories = new BoundedTtlMap(options.maxTenants ?? 10_000);
    // 24 MB: ~20,000 users' reads or ~200 full pages of 200 users (pages above 2 KB are bytes, outside the heap); one
    // directory at most a quarter of it (its 5,000 users' look-ups fit).
    const maxReadBytes = options.maxDirectoryReadBytes ?? 24 * 1024 * 1024;
    this.#directoryReads = new ScopedReads(maxReadBytes, Math.floor(maxReadBytes / 4));
    // 16 MB: ~2,500 pages of ten tenants, or 1,000 tenants' API keys and 500 first pages of invitations together; one
    // listing at most half of it (the tenants' listing is one, whatever its filters). Mostly bytes, outside the heap.
    const maxListingBytes = options.maxListingBytes ?? 16 * 1024 * 1024;
    this.#listings = new ScopedReads(maxListingBytes, Math.floor(maxListingBytes / 2));
  }

  /**
   * False while disabled (TTL 0), suspended (the change listener is not connected) or past the listener's liveness
   * lease: every read goes to the store.
   */
  get active(): boolean {
    return this.ttlMs > 0 && !this.#suspended && this.#now() < this.#liveUntil;
  }

  generation(): number {
    return this.#generation;
  }

  apiKey(prefix: string): CachedApiKey | undefined {
    const key = this.active ? this.#keys.get(prefix, this.#now()) : undefined;
    if (key) this.stats.apiKeyHits += 1;
    else this.stats.apiKeyMisses += 1;
    return key;
  }

  /** True when a recent read found no key with this prefix. */
  apiKeyKnownMissing(prefix: string): boolean {
    return this.active && this.#missingKeys.get(prefix, this.#now()) === true;
  }

  putMissingApiKey(prefix: string, loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    this.#missingKeys.set(prefix, true, now + this.ttlMs, now);
  }

  tenant(id: string): CachedTenant | undefined {
    const tenant = this.active ? this.#tenants.get(id, this.#now()) : undefined;
    if (tenant) this.stats.tenantHits += 1;
    else this.stats.tenantMisses += 1;
    return tenant;
  }

  tenantBySlug(slug: string): CachedTenant | undefined {
    if (!this.active) return undefined;
    const id = this.#slugs.get(slug, this.#now());
    const tenant = id === undefined ? undefined : this.tenant(id);
    return tenant?.slug === slug ? tenant : undefined;
  }

  /** The tenant as its read answers it. */
  tenantDocument(lookup: { by: 'id'; id: string } | { by: 'slug'; slug: string }): TenantDocument | undefined {
    if (!this.active) return undefined;
    const now = this.#now();
    const id = lookup.by === 'id' ? lookup.id : this.#documentSlugs.get(lookup.slug, now);
    const document = id === undefined ? undefined : this.#documents.get(id, now);
    return document !== undefined && (lookup.by === 'id' || document.slug === lookup.slug) ? document : undefined;
  }

  /** The catalog as its listing answers it. */
  catalogDocument(): string | Buffer | undefined {
    if (!this.active) return undefined;
    const entry = this.#catalogDocument;
    return entry && entry.expiresAt > this.#now() ? entry.value : undefined;
  }

  /** The tenant's entitlements as their listing answers them. */
  entitlementsDocument(tenantId: string): string | undefined {
    return this.active ? this.#entitlementDocuments.get(tenantId, this.#now()) : undefined;
  }

  /** The user's grants in every tenant (empty: a member of none). */
  memberGrants(userId: string): MembershipGrant[] | undefined {
    const grants = this.active ? this.#grants.get(userId, this.#now()) : undefined;
    if (grants) this.stats.memberHits += 1;
    else this.stats.memberMisses += 1;
    return grants;
  }

  /** The tenant's members for the listing, or that it has too many to hold. */
  memberList(tenantId: string): CachedMemberList | undefined {
    const list = this.active ? this.#memberLists.get(tenantId, this.#now()) : undefined;
    if (list !== undefined && list !== 'tooMany') this.stats.memberListHits += 1;
    else this.stats.memberListMisses += 1;
    return list;
  }

  directory(id: string): DirectoryRecord | undefined {
    return this.active ? this.#directories.get(id, this.#now()) : undefined;
  }

  /** A read of the directory's users answered lately for `query` (its kind and parameters), still fresh. */
  directoryRead<T>(directoryId: string, query: string): T | undefined {
    return this.active ? (this.#directoryReads.get(directoryId, query, this.#now()) as T | undefined) : undefined;
  }

  /** A page of `listing` answered lately for `query` (its filters, cursor and limit), still fresh. */
  listing(listing: string, query: string): string | Buffer | undefined {
    const page = this.active ? (this.#listings.get(listing, query, this.#now()) as string | Buffer | undefined) : undefined;
    if (page !== undefined) this.stats.listingHits += 1;
    else this.stats.listingMisses += 1;
    return page;
  }

  putDirectory(directory: DirectoryRecord, loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    this.#directories.set(directory.id, directory, now + this.ttlMs, now);
  }

  putDirectoryRead(directoryId: string, query: string, value: unknown, loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    this.#directoryReads.set(directoryId, query, value, now + this.ttlMs, now);
  }

  putListing(listing: string, query: string, answer: string | Buffer, loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    this.#listings.set(listing, query, answer, now + this.ttlMs, now);
  }

  putApiKey(prefix: string, key: CachedApiKey, loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    this.#keys.set(prefix, key, now + this.ttlMs, now);
  }

  putTenant(tenant: CachedTenant, loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    const expiresAt = now + this.ttlMs;
    this.#tenants.set(tenant.id, tenant, expiresAt, now);
    this.#slugs.set(tenant.slug, tenant.id, expiresAt, now);
  }

  putTenantDocument(document: TenantDocument, loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    this.#documents.set(document.id, document, now + this.ttlMs, now);
    this.#documentSlugs.set(document.slug, document.id, now + this.ttlMs, now);
  }

  putEntitlementsDocument(tenantId: string, json: string, loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    this.#entitlementDocuments.set(tenantId, json, now + this.ttlMs, now);
  }

  putCatalogDocument(json: string | Buffer, loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    this.#catalogDocument = { value: json, expiresAt: now + this.ttlMs, storedAt: now };
  }

  putMemberGrants(userId: string, grants: MembershipGrant[], loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    this.#grants.set(userId, grants, now + this.ttlMs, now);
  }

  putMemberList(tenantId: string, list: CachedMemberList, loadedAtGeneration: number): void {
    if (!this.active || loadedAtGeneration !== this.#generation) return;
    const now = this.#now();
    this.#memberLists.set(tenantId, list, now + this.ttlMs, now);
  }

  invalidateApiKey(prefix: string): void {
    this.#generation += 1;
    this.#keys.delete(prefix);
    this.#missingKeys.delete(prefix);
  }

  /**
   * The tenant's status, plan or entitlements changed, or it went. Keys only hold the tenant id, so they stay; its
   * member list goes too, since a tenant deleted without members notifies no member change, and so do the tenants'
   * listing (the tenant may move in or out of a filter) and its own listings (a tenant gone answers 404).
   */
  invalidateTenant(id: string): void {
    this.#generation += 1;
    this.#tenants.delete(id);
    this.#documents.delete(id);
    this.#entitlementDocuments.delete(id);
    this.#memberLists.delete(id);
    this.#listings.forget(TENANT_LISTING);
    this.#listings.forget(apiKeyListing(id));
    this.#listings.forget(invitationListing(id));
  }

  /** What a listing lists changed (a tenant made; a tenant's API key or invitation made, changed or gone). */
  invalidateListing(listing: string): void {
    this.#generation += 1;
    this.#listings.forget(listing);
  }

  /** One of the user's memberships changed (its status, its roles; added or removed). */
  invalidateUser(userId: string): void {
    this.#generation += 1;
    this.#grants.delete(userId);
  }

  /** One of the tenant's members changed (added, removed, its status, its roles or what the list shows of it). */
  invalidateMemberList(tenantId: string): void {
    this.#generation += 1;
    this.#memberLists.delete(tenantId);
  }

  /** The directory, one of its users or one of its groups changed (its token, its state; what a SCIM read answers). */
  invalidateDirectory(id: string): void {
    this.#generation += 1;
    this.#directories.delete(id);
    this.#directoryReads.forget(id);
  }

  /** A product of the catalog was added, changed or removed (a migration's or an operator's statement). */
  invalidateCatalog(): void {
    this.#generation += 1;
    this.#catalogDocument = undefined;
  }

  /** A role's permissions changed or a role went: any cached user may hold it, any tenant's member list show it. */
  invalidateAllMembers(): void {
    this.#generation += 1;
    this.#grants.clear();
    this.#memberLists.clear();
  }

  clear(): void {
    this.#generation += 1;
    for (const map of this.#entryMaps()) map.clear();
    this.#directoryReads.clear();
    this.#listings.clear();
    this.#catalogDocument = undefined;
  }

  /** The maps of single entries (every part but the scoped reads and the catalog), for what is done to all alike. */
  #entryMaps(): Pick<BoundedTtlMap<string, never>, 'clear' | 'sweep'>[] {
    return [this.#keys, this.#missingKeys, this.#tenants, this.#slugs, this.#documents, this.#documentSlugs, this.#entitlementDocuments, this.#grants, this.#memberLists, this.#directories];
  }

  /** How many entries each part holds, expired ones not yet swept included (for the metrics). */
  held(): Record<CachePart, number> {
    return {
      api_key: this.#keys.size,
      missing_api_key: this.#missingKeys.size,
      tenant: this.#tenants.size,
      tenant_document: this.#documents.size,
      entitlements: this.#entitlementDocuments.size,
      member: this.#grants.size,
      member_list: this.#memberLists.size,
      directory: this.#directories.size,
      directory_read: this.#directoryReads.size,
      listing: this.#listings.size,
    };
  }

  /**
   * Forgets what can answer nothing any more, neither as fresh nor as stale-if-error: without it an entry stayed until
   * its bound pushed it out, so the memory held grew with every distinct key, tenant or page ever read, not with
   * those read lately (docs/performance.md). Nothing that can answer goes, so no generation changes.
   */
  sweep(): void {
    const now = this.#now();
    for (const map of this.#entryMaps()) map.sweep(now, this.staleIfErrorMs);
    this.#directoryReads.sweep(now);
    this.#listings.sweep(now);
    if (this.#catalogDocument && this.#catalogDocument.expiresAt <= now) this.#catalogDocument = undefined;
  }

  /**
   * The change listener lost its connection: notifications may be missed, so serve nothing from memory, but keep what
   * is there for `stale*`, the answer of last resort while the store cannot be read.
   */
  suspend(): void {
    this.#suspended = true;
    this.#generation += 1;
  }

  /** A key stored within staleIfErrorMs, whatever the cache's state: for when the store read failed. */
  staleApiKey(prefix: string): CachedApiKey | undefined {
    return this.#fresh(this.#keys.peek(prefix));
  }

  /** A tenant stored within staleIfErrorMs, by id or slug: for when the store read failed. */
  staleTenant(lookup: { by: 'id'; id: string } | { by: 'slug'; slug: string }): CachedTenant | undefined {
    const id = lookup.by === 'id' ? lookup.id : this.#fresh(this.#slugs.peek(lookup.slug));
    const tenant = id === undefined ? undefined : this.#fresh(this.#tenants.peek(id));
    return lookup.by === 'slug' && tenant?.slug !== lookup.slug ? undefined : tenant;
  }

  /** The user's grants stored within staleIfErrorMs: for when the store read failed. */
  staleMemberGrants(userId: string): MembershipGrant[] | undefined {
    return this.#fresh(this.#grants.peek(userId));
  }

  /** The tenant's member list stored within staleIfErrorMs: for when the store read failed. */
  staleMemberList(tenantId: string): TenantMemberList | undefined {
    const list = this.#fresh(this.#memberLists.peek(tenantId));
    return list === 'tooMany' ? undefined : list;
  }

  #fresh<T>(entry: Entry<T> | undefined): T | undefined {
    return entry && this.#now() - entry.storedAt <= this.staleIfErrorMs ? entry.value : undefined;
  }

  /**
   * The change listener is listening again; what was cached before may have changed meanwhile. `liveUntil` starts
   * its liveness lease, which `renewLiveness` extends with every answered heartbeat.
   */
  resume(liveUntil = Number.POSITIVE_INFINITY): void {
    this.clear();
    this.#liveUntil = liveUntil;
    this.#suspended = false;
  }

  /**
   * The listener's connection answered: notifications sent before now have arrived. A lease that already ran out
   * means some may have been missed meanwhile, so the cache starts empty again.
   */
  renewLiveness(liveUntil: number): void {
    if (this.#now() >= this.#liveUntil) this.clear();
    this.#liveUntil = liveUntil;
  }

  get sizes(): { apiKeys: number; tenants: number; users: number; memberLists: number } {
    return { apiKeys: this.#keys.size, tenants: this.#tenants.size, users: this.#grants.size, memberLists: this.#memberLists.size };
  }
}
