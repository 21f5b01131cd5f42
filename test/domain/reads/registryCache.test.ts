import { describe, expect, it } from 'vitest';
import type { MembershipGrant } from '../../../domain/members/memberRecord.ts';
import { TenantMemberList } from '../../../domain/members/tenantMemberList.ts';
import { RegistryCache } from '../../../domain/reads/registryCache.ts';
import type { CachedApiKey } from '../../../domain/reads/apiKeyCache.ts';
import type { CachedTenant } from '../../../domain/reads/tenantCache.ts';
import { TENANT_LISTING, apiKeyListing, invitationListing } from '../../../domain/reads/listingNames.ts';

const key = (id: string): CachedApiKey => ({
  id,
  tenantId: 't-1',
  product: null,
  scopes: ['read'],
  keyHash: Buffer.alloc(32),
  revoked: false,
  expiresAt: null,
  lastUsedAt: 0,
});
const tenant = (id: string, slug: string): CachedTenant => ({ id, slug, plan: 'starter', status: 'active', entitlements: [], signIn: { require_sso: false, mfa: 'off' }, ssoAliases: [] });

const grants = (tenantId: string): MembershipGrant[] => [{ tenantId, status: 'active', roles: ['IT_ADMIN'], permissions: ['audit:read'], breakGlass: false }];

/** A member list of `size` members (what they are does not matter to the cache). */
const memberList = (size: number) =>
  new TenantMemberList(
    Array.from({ length: size }, (_, i) => ({
      member: { tenantId: 't-1', userId: `u${i}`, email: `u${i}@x.test`, name: 'U', roles: [], permissions: [], status: 'active' as const, source: 'registry' as const, createdAt: new Date(0), updatedAt: new Date(0) },
      position: { email: `u${i}@x.test`, userId: `u${i}` },
      lowerName: 'u',
    })),
  );

function cacheAt(options: { ttlMs?: number; maxKeys?: number; maxUsers?: number; maxListedMembers?: number; staleIfErrorMs?: number } = {}) {
  let now = 1_000_000;
  const cache = new RegistryCache({
    ttlMs: options.ttlMs ?? 30_000,
    maxKeys: options.maxKeys,
    maxUsers: options.maxUsers,
    maxListedMembers: options.maxListedMembers,
    staleIfErrorMs: options.staleIfErrorMs,
    now: () => now,
  });
  return { cache, advance: (ms: number) => (now += ms) };
}

describe('RegistryCache', () => {
  it('serves a key until its TTL has passed, then reads again', () => {
    const { cache, advance } = cacheAt({ ttlMs: 30_000 });
    cache.apiKeys.put('trk_a', key('a'), cache.generation());
    advance(29_999);
    expect(cache.apiKeys.get('trk_a')?.id).toBe('a');
    advance(1);
    expect(cache.apiKeys.get('trk_a')).toBeUndefined();
  });

  it('forgets an invalidated key at once', () => {
    const { cache } = cacheAt();
    cache.apiKeys.put('trk_a', key('a'), cache.generation());
    cache.invalidateApiKey('trk_a');
    expect(cache.apiKeys.get('trk_a')).toBeUndefined();
  });

  it('does not store what a load read before an invalidation that happened while it ran', () => {
    const { cache } = cacheAt();
    const loadStarted = cache.generation();
    // Meanwhile: the key is revoked (here or on another replica) and the cache told so.
    cache.invalidateApiKey('trk_a');
    cache.apiKeys.put('trk_a', key('a'), loadStarted);
    expect(cache.apiKeys.get('trk_a')).toBeUndefined();
    // Any invalidation counts, not only one of the same key: stale reads are dropped rather than guessed about.
    const next = cache.generation();
    cache.invalidateTenant('t-9');
    cache.tenants.put(tenant('t-1', 'acme'), next);
    expect(cache.tenants.get('t-1')).toBeUndefined();
  });

  it('finds a tenant by slug only while the cached tenant still has that slug', () => {
    const { cache } = cacheAt();
    cache.tenants.put(tenant('t-1', 'acme'), cache.generation());
    expect(cache.tenants.bySlug('acme')?.id).toBe('t-1');
    cache.tenants.put(tenant('t-1', 'acme-renamed'), cache.generation());
    expect(cache.tenants.bySlug('acme')).toBeUndefined();
    expect(cache.tenants.bySlug('acme-renamed')?.id).toBe('t-1');
  });

  it('an invalidated tenant is read again, by id and by slug', () => {
    const { cache } = cacheAt();
    cache.tenants.put(tenant('t-1', 'acme'), cache.generation());
    cache.invalidateTenant('t-1');
    expect(cache.tenants.get('t-1')).toBeUndefined();
    expect(cache.tenants.bySlug('acme')).toBeUndefined();
  });

  it('serves and stores nothing while suspended, and starts empty when resumed', () => {
    const { cache } = cacheAt();
    cache.apiKeys.put('trk_a', key('a'), cache.generation());
    cache.suspend();
    expect(cache.active).toBe(false);
    expect(cache.apiKeys.get('trk_a')).toBeUndefined();
    cache.apiKeys.put('trk_b', key('b'), cache.generation());
    cache.resume();
    expect(cache.apiKeys.get('trk_a')).toBeUndefined();
    expect(cache.apiKeys.get('trk_b')).toBeUndefined();
    cache.apiKeys.put('trk_c', key('c'), cache.generation());
    expect(cache.apiKeys.get('trk_c')?.id).toBe('c');
  });

  it('a TTL of 0 turns it off', () => {
    const { cache } = cacheAt({ ttlMs: 0 });
    cache.apiKeys.put('trk_a', key('a'), cache.generation());
    expect(cache.active).toBe(false);
    expect(cache.apiKeys.get('trk_a')).toBeUndefined();
  });

  it('holds at most maxKeys keys, dropping the oldest first', () => {
    const { cache } = cacheAt({ maxKeys: 2 });
    for (const id of ['a', 'b', 'c']) cache.apiKeys.put(`trk_${id}`, key(id), cache.generation());
    expect(cache.apiKeys.get('trk_a')).toBeUndefined();
    expect(cache.apiKeys.get('trk_b')?.id).toBe('b');
    expect(cache.apiKeys.get('trk_c')?.id).toBe('c');
    expect(cache.held().api_key).toBe(2);
  });

  it('a key, tenant or user whose entry expired still answers as stale after a lookup missed it, within staleIfErrorMs', () => {
    const { cache, advance } = cacheAt({ ttlMs: 30_000, staleIfErrorMs: 60_000 });
    cache.apiKeys.put('trk_a', key('a'), cache.generation());
    cache.tenants.put(tenant('t-1', 'one'), cache.generation());
    cache.grants.put('u-1', grants('t-1'), cache.generation());
    advance(30_000);
    expect([cache.apiKeys.get('trk_a'), cache.tenants.get('t-1'), cache.tenants.bySlug('one'), cache.grants.get('u-1')]).toEqual([undefined, undefined, undefined, undefined]);
    expect(cache.apiKeys.stale('trk_a')?.id).toBe('a');
    expect(cache.tenants.stale({ by: 'slug', slug: 'one' })?.id).toBe('t-1');
    expect(cache.grants.stale('u-1')).toEqual(grants('t-1'));
    advance(30_001);
    expect([cache.apiKeys.stale('trk_a'), cache.tenants.stale({ by: 'id', id: 't-1' }), cache.grants.stale('u-1')]).toEqual([undefined, undefined, undefined]);
  });

  it('a sweep forgets only what can answer nothing: expired and stored longer ago than staleIfErrorMs', () => {
    const { cache, advance } = cacheAt({ ttlMs: 30_000, staleIfErrorMs: 60_000 });
    cache.apiKeys.put('trk_old', key('old'), cache.generation());
    cache.tenants.put(tenant('t-old', 'old'), cache.generation());
    cache.listings.put(TENANT_LISTING, 'q', 'page', cache.generation());
    advance(40_000);
    cache.apiKeys.put('trk_new', key('new'), cache.generation());
    cache.sweep();
    // Expired, yet stale-if-error may still answer the key and the tenant; a listing has no stale answer.
    expect(cache.held()).toMatchObject({ api_key: 2, tenant: 1, listing: 0 });
    expect(cache.apiKeys.stale('trk_old')?.id).toBe('old');
    advance(20_001);
    cache.sweep();
    expect(cache.held()).toMatchObject({ api_key: 1, tenant: 0 });
    expect(cache.apiKeys.get('trk_new')?.id).toBe('new');
  });

  describe("a user's membership grants", () => {
    it('are served until the TTL has passed, and counted as member hits and misses', () => {
      const { cache, advance } = cacheAt({ ttlMs: 30_000 });
      expect(cache.grants.get('u-1')).toBeUndefined();
      cache.grants.put('u-1', grants('t-1'), cache.generation());
      cache.grants.put('u-2', [], cache.generation());
      advance(29_999);
      expect(cache.grants.get('u-1')).toEqual(grants('t-1'));
      expect(cache.grants.get('u-2')).toEqual([]);
      advance(1);
      expect(cache.grants.get('u-1')).toBeUndefined();
      expect(cache.grants.stats).toEqual({ hits: 2, misses: 2 });
    });

    it("invalidating a user forgets that user's grants only; a role change forgets every user's", () => {
      const { cache } = cacheAt();
      for (const user of ['u-1', 'u-2', 'u-3']) cache.grants.put(user, grants('t-1'), cache.generation());
      cache.invalidateUser('u-1');
      expect(cache.grants.get('u-1')).toBeUndefined();
      expect(cache.grants.get('u-2')).toBeDefined();
      cache.invalidateAllMembers();
      expect(cache.grants.get('u-2')).toBeUndefined();
      expect(cache.grants.get('u-3')).toBeUndefined();
      expect(cache.held().member).toBe(0);
    });

    it('are not stored when any invalidation happened while they were read', () => {
      const { cache } = cacheAt();
      for (const invalidate of [() => cache.invalidateUser('u-1'), () => cache.invalidateAllMembers(), () => cache.invalidateTenant('t-9')]) {
        const loadStarted = cache.generation();
        invalidate();
        cache.grants.put('u-1', grants('t-1'), loadStarted);
        expect(cache.grants.get('u-1')).toBeUndefined();
      }
    });

    it('are neither served nor stored while suspended, yet answer as stale within staleIfErrorMs; a resume starts empty', () => {
      const { cache, advance } = cacheAt({ staleIfErrorMs: 60_000 });
      cache.grants.put('u-1', grants('t-1'), cache.generation());
      cache.suspend();
      expect(cache.grants.get('u-1')).toBeUndefined();
      cache.grants.put('u-2', grants('t-2'), cache.generation());
      expect(cache.grants.stale('u-2')).toBeUndefined();
      expect(cache.grants.stale('u-1')).toEqual(grants('t-1'));
      advance(60_001);
      expect(cache.grants.stale('u-1')).toBeUndefined();
      cache.resume();
      expect(cache.grants.get('u-1')).toBeUndefined();
    });

    it('are held for at most maxUsers users, the oldest dropped first', () => {
      const { cache } = cacheAt({ maxUsers: 2 });
      for (const user of ['u-1', 'u-2', 'u-3']) cache.grants.put(user, grants('t-1'), cache.generation());
      expect(cache.grants.get('u-1')).toBeUndefined();
      expect(cache.grants.get('u-3')).toBeDefined();
      expect(cache.held().member).toBe(2);
    });
  });

  describe("a tenant's member list", () => {
    it('is served until the TTL has passed, and counted as member_list hits and misses (a tenant with too many members is a miss)', () => {
      const { cache, advance } = cacheAt({ ttlMs: 30_000 });
      const list = memberList(3);
      expect(cache.memberLists.get('t-1')).toBeUndefined();
      cache.memberLists.put('t-1', list, cache.generation());
      cache.memberLists.put('t-2', 'tooMany', cache.generation());
      advance(29_999);
      expect(cache.memberLists.get('t-1')).toBe(list);
      expect(cache.memberLists.get('t-2')).toBe('tooMany');
      advance(1);
      expect(cache.memberLists.get('t-1')).toBeUndefined();
      expect(cache.memberLists.stats).toEqual({ hits: 1, misses: 3 });
    });

    it("a member change forgets that tenant's list only; a role change, a change of the tenant and a clear forget theirs", () => {
      const { cache } = cacheAt();
      const fill = () => {
        for (const id of ['t-1', 't-2', 't-3']) cache.memberLists.put(id, memberList(1), cache.generation());
      };
      fill();
      cache.invalidateMemberList('t-1');
      expect(cache.memberLists.get('t-1')).toBeUndefined();
      expect(cache.memberLists.get('t-2')).toBeDefined();
      cache.invalidateTenant('t-2');
      expect(cache.memberLists.get('t-2')).toBeUndefined();
      expect(cache.memberLists.get('t-3')).toBeDefined();
      cache.invalidateAllMembers();
      expect(cache.held().member_list).toBe(0);
      fill();
      cache.invalidateUser('u-1');
      expect(cache.held().member_list).toBe(3);
      cache.clear();
      expect(cache.held().member_list).toBe(0);
    });

    it('is not stored when any invalidation happened while it was read, nor while suspended; a resume starts empty', () => {
      const { cache } = cacheAt();
      for (const invalidate of [() => cache.invalidateMemberList('t-9'), () => cache.invalidateAllMembers(), () => cache.invalidateUser('u-1'), () => cache.suspend()]) {
        const loadStarted = cache.generation();
        invalidate();
        cache.memberLists.put('t-1', memberList(1), loadStarted);
        cache.resume();
        expect(cache.memberLists.get('t-1')).toBeUndefined();
      }
      cache.memberLists.put('t-1', memberList(1), cache.generation());
      cache.suspend();
      expect(cache.memberLists.get('t-1')).toBeUndefined();
      cache.resume();
      expect(cache.memberLists.get('t-1')).toBeUndefined();
    });

    it('answers as stale within staleIfErrorMs, suspended or not; a tenant with too many members has no stale list', () => {
      const { cache, advance } = cacheAt({ staleIfErrorMs: 60_000 });
      const list = memberList(2);
      cache.memberLists.put('t-1', list, cache.generation());
      cache.memberLists.put('t-2', 'tooMany', cache.generation());
      cache.suspend();
      expect(cache.memberLists.stale('t-1')).toBe(list);
      expect(cache.memberLists.stale('t-2')).toBeUndefined();
      advance(60_001);
      expect(cache.memberLists.stale('t-1')).toBeUndefined();
    });

    it('holds at most maxListedMembers members over all lists, the oldest lists dropped first; a larger list is not held', () => {
      const { cache } = cacheAt({ maxListedMembers: 10 });
      cache.memberLists.put('t-1', memberList(4), cache.generation());
      cache.memberLists.put('t-2', memberList(4), cache.generation());
      cache.memberLists.put('t-3', memberList(3), cache.generation());
      expect(cache.memberLists.get('t-1')).toBeUndefined();
      expect(cache.memberLists.get('t-2')).toBeDefined();
      expect(cache.memberLists.get('t-3')).toBeDefined();
      // Stored again, a list weighs its new size only: 4 + 7 is too many, 7 + 3 is not.
      cache.memberLists.put('t-3', memberList(7), cache.generation());
      expect(cache.held().member_list).toBe(1);
      cache.memberLists.put('t-5', memberList(3), cache.generation());
      expect(cache.held().member_list).toBe(2);
      cache.memberLists.put('t-4', memberList(11), cache.generation());
      expect(cache.memberLists.get('t-4')).toBeUndefined();
      expect(cache.memberLists.get('t-3')).toBeDefined();
    });
  });

  describe("a directory's record and SCIM reads", () => {
    const directory = (id: string) => ({
      id,
      tenantId: 't-1',
      state: 'active' as const,
      groupRoles: {},
      tokenHash: Buffer.alloc(32),
      previousTokenHash: null,
      previousTokenExpiresAt: null,
      lastSyncedAt: null,
      createdAt: new Date(0),
      updatedAt: new Date(0),
    });

    it('are served until the TTL has passed; invalidating a directory forgets its record and its reads, not another directory\'s', () => {
      const { cache, advance } = cacheAt();
      cache.directories.put(directory('d-1'), cache.generation());
      cache.directories.putRead('d-1', 'page|userName|a@x.test|1|200', { total: 1 }, cache.generation());
      cache.directories.putRead('d-2', 'user|u-1', null, cache.generation());
      expect(cache.directories.get('d-1')?.id).toBe('d-1');
      expect(cache.directories.read('d-1', 'page|userName|a@x.test|1|200')).toEqual({ total: 1 });
      // A read of nothing is kept as null, told apart from a read not held.
      expect(cache.directories.read('d-2', 'user|u-1')).toBeNull();
      expect(cache.directories.read('d-2', 'user|u-2')).toBeUndefined();
      cache.invalidateDirectory('d-1');
      expect(cache.directories.get('d-1')).toBeUndefined();
      expect(cache.directories.read('d-1', 'page|userName|a@x.test|1|200')).toBeUndefined();
      expect(cache.directories.read('d-2', 'user|u-1')).toBeNull();
      advance(30_001);
      expect(cache.directories.read('d-2', 'user|u-1')).toBeUndefined();
    });

    it('are not stored when any invalidation happened while they were read, nor while suspended', () => {
      const { cache } = cacheAt();
      const generation = cache.generation();
      cache.invalidateDirectory('d-9');
      cache.directories.put(directory('d-1'), generation);
      cache.directories.putRead('d-1', 'user|u-1', null, generation);
      expect(cache.directories.get('d-1')).toBeUndefined();
      expect(cache.directories.read('d-1', 'user|u-1')).toBeUndefined();
      cache.suspend();
      cache.directories.put(directory('d-1'), cache.generation());
      expect(cache.directories.get('d-1')).toBeUndefined();
    });

    it('holds reads up to maxDirectoryReadBytes over all directories, a quarter of it for one directory, the oldest first', () => {
      // A user's read weighs 1,280: eight of them in all, two of one directory.
      const cache = new RegistryCache({ ttlMs: 30_000, maxDirectoryReadBytes: 8 * 1_280 });
      for (let i = 0; i < 3; i += 1) cache.directories.putRead('d-1', `user|u-${i}`, i, cache.generation());
      expect(cache.directories.read('d-1', 'user|u-0')).toBeUndefined();
      expect(cache.directories.read('d-1', 'user|u-2')).toBe(2);
      for (const id of ['d-2', 'd-3', 'd-4', 'd-5']) for (let i = 0; i < 2; i += 1) cache.directories.putRead(id, `user|u-${i}`, i, cache.generation());
      expect(cache.directories.read('d-1', 'user|u-2')).toBeUndefined();
      expect(cache.directories.read('d-5', 'user|u-1')).toBe(1);
    });

    it('weighs a list by its bytes: distinct large pages of one directory push out its older reads, never past its share', () => {
      const cache = new RegistryCache({ ttlMs: 30_000, maxDirectoryReadBytes: 4 * 1024 * 1024 });
      const page = (n: number) => Buffer.alloc(120 * 1024, n);
      for (let start = 0; start < 100; start += 1) cache.directories.putRead('d-1', `page|${start}`, page(start), cache.generation());
      const held = Array.from({ length: 100 }, (_, start) => cache.directories.read<Buffer>('d-1', `page|${start}`)).filter((read) => read !== undefined);
      // A quarter of 4 MB is eight pages of 120 KB with their entries; the newest stay.
      expect(held).toHaveLength(8);
      expect(cache.directories.read<Buffer>('d-1', 'page|99')?.[0]).toBe(99);
      expect(cache.directories.read('d-1', 'page|91')).toBeUndefined();
      // Read again with the same query, a page replaces its old weight rather than adding to it.
      cache.directories.putRead('d-1', 'page|99', page(7), cache.generation());
      expect(cache.directories.read<Buffer>('d-1', 'page|92')?.[0]).toBe(92);
    });

    it('weighs an answer kept as text by its UTF-8 bytes, as it would weigh as bytes', () => {
      // A quarter of 40 KB is 10 KB: four answers of 2,000 bytes with their entries (2,256 each), whatever their form.
      for (const kept of [(n: number) => 'é'.repeat(1_000) + n, (n: number) => Buffer.from('é'.repeat(1_000) + n)]) {
        const cache = new RegistryCache({ ttlMs: 30_000, maxDirectoryReadBytes: 40 * 1024 });
        for (let i = 0; i < 6; i += 1) cache.directories.putRead('d-1', `page|${i}`, kept(i), cache.generation());
        const held = Array.from({ length: 6 }, (_, i) => cache.directories.read('d-1', `page|${i}`)).filter((read) => read !== undefined);
        expect(held).toHaveLength(4);
        expect(cache.directories.read('d-1', 'page|1')).toBeUndefined();
      }
    });
  });

  describe("listings' pages", () => {
    it("are served until the TTL has passed; invalidating a listing forgets all its pages and no other listing's", () => {
      const { cache, advance } = cacheAt({ ttlMs: 30_000 });
      cache.listings.put(TENANT_LISTING, '50|', '{"items":[1]}', cache.generation());
      cache.listings.put(TENANT_LISTING, '50||active', '{"items":[2]}', cache.generation());
      cache.listings.put(apiKeyListing('t-1'), '', '{"items":[3]}', cache.generation());
      cache.listings.put(apiKeyListing('t-2'), '', '{"items":[4]}', cache.generation());
      expect(cache.listings.page(TENANT_LISTING, '50||active')).toBe('{"items":[2]}');
      cache.invalidateListing(apiKeyListing('t-1'));
      expect(cache.listings.page(apiKeyListing('t-1'), '')).toBeUndefined();
      expect(cache.listings.page(apiKeyListing('t-2'), '')).toBe('{"items":[4]}');
      expect(cache.listings.page(TENANT_LISTING, '50|')).toBe('{"items":[1]}');
      cache.invalidateListing(TENANT_LISTING);
      expect(cache.listings.page(TENANT_LISTING, '50|')).toBeUndefined();
      expect(cache.listings.page(TENANT_LISTING, '50||active')).toBeUndefined();
      advance(30_000);
      expect(cache.listings.page(apiKeyListing('t-2'), '')).toBeUndefined();
    });

    it("a tenant's change forgets the tenants' listing and that tenant's own listings, not another tenant's", () => {
      const { cache } = cacheAt();
      for (const listing of [TENANT_LISTING, apiKeyListing('t-1'), invitationListing('t-1'), apiKeyListing('t-2'), invitationListing('t-2')]) {
        cache.listings.put(listing, 'q', listing, cache.generation());
      }
      cache.invalidateTenant('t-1');
      expect([TENANT_LISTING, apiKeyListing('t-1'), invitationListing('t-1')].map((listing) => cache.listings.page(listing, 'q'))).toEqual([undefined, undefined, undefined]);
      expect(cache.listings.page(apiKeyListing('t-2'), 'q')).toBe(apiKeyListing('t-2'));
      expect(cache.listings.page(invitationListing('t-2'), 'q')).toBe(invitationListing('t-2'));
    });

    it('are not stored when any invalidation happened while they were read, nor while suspended; a resume starts empty', () => {
      const { cache } = cacheAt();
      const generation = cache.generation();
      cache.invalidateListing(invitationListing('t-9'));
      cache.listings.put(TENANT_LISTING, 'q', 'raced', generation);
      expect(cache.listings.page(TENANT_LISTING, 'q')).toBeUndefined();
      cache.listings.put(TENANT_LISTING, 'q', 'kept', cache.generation());
      cache.suspend();
      expect(cache.listings.page(TENANT_LISTING, 'q')).toBeUndefined();
      cache.listings.put(TENANT_LISTING, 'other', 'while suspended', cache.generation());
      cache.resume();
      expect(cache.listings.page(TENANT_LISTING, 'q')).toBeUndefined();
      expect(cache.listings.page(TENANT_LISTING, 'other')).toBeUndefined();
    });

    it('holds pages up to maxListingBytes over all listings, half of it for one listing, the oldest first', () => {
      // A page of 1,000 ASCII characters weighs 1,256 with its entry: four in all, two of one listing.
      const cache = new RegistryCache({ ttlMs: 30_000, maxListingBytes: 4 * 1_256 });
      const page = (n: number) => `${n}`.padEnd(1_000, ' ');
      for (let i = 0; i < 3; i += 1) cache.listings.put(TENANT_LISTING, `q${i}`, page(i), cache.generation());
      expect(cache.listings.page(TENANT_LISTING, 'q0')).toBeUndefined();
      expect(cache.listings.page(TENANT_LISTING, 'q2')).toBe(page(2));
      for (const tenantId of ['t-1', 't-2']) for (let i = 0; i < 2; i += 1) cache.listings.put(apiKeyListing(tenantId), `q${i}`, page(i), cache.generation());
      expect(cache.listings.page(TENANT_LISTING, 'q2')).toBeUndefined();
      expect(cache.listings.page(apiKeyListing('t-1'), 'q0')).toBe(page(0));
      expect(cache.listings.page(apiKeyListing('t-2'), 'q1')).toBe(page(1));
    });
  });
});
