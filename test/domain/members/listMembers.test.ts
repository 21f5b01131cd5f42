import { describe, expect, it, vi } from 'vitest';
import { listMembers, MEMBER_LIST_HELD_AT_MOST } from '../../../domain/members/listMembers.ts';
import { encodeMemberCursor } from '../../../domain/members/memberListCursor.ts';
import { RegistryCache } from '../../../domain/reads/registryCache.ts';
import type { MemberListQuery } from '../../../domain/schemas/members.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const MISSING = '00000000-0000-4000-8000-00000000000f';

function setup(count: number) {
  const registry = inMemoryRegistry();
  registry.roles.addTenant(TENANT);
  for (let i = 0; i < count; i += 1) {
    registry.members.seed({ tenantId: TENANT, userId: `u${String(i).padStart(3, '0')}`, email: `m${i % 7}@example.test`, name: `M ${i}`, roles: ['MEMBER'], status: 'active', source: 'registry' });
  }
  return registry;
}

type Page = { items: { user_id: string }[]; next_cursor?: string };
const pageOf = async (registry: ReturnType<typeof setup>, query: MemberListQuery, cache?: RegistryCache): Promise<Page> =>
  JSON.parse((await listMembers(registry, TENANT, query, cache)).toString()) as Page;

function counted(registry: ReturnType<typeof setup>) {
  return { listing: vi.spyOn(registry.members, 'listing'), page: vi.spyOn(registry.members, 'page') };
}

describe('listMembers', () => {
  it('answers limit members and a cursor; following the cursors walks every member once, the last page without one', async () => {
    const registry = setup(23);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await pageOf(registry, { limit: 5, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((m) => m.user_id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual((await pageOf(registry, { limit: 500 })).items.map((m) => m.user_id));
    expect(new Set(seen).size).toBe(23);
  });

  it('takes 50 members a page when no limit is given; a page that ends the list has no cursor', async () => {
    const registry = setup(50);
    const page = await pageOf(registry, {});
    expect(page.items).toHaveLength(50);
    expect(page.next_cursor).toBeUndefined();
  });

  it('is 404 for an unknown tenant and 400 for a cursor it did not give', async () => {
    const registry = setup(1);
    const cache = new RegistryCache({ ttlMs: 30_000 });
    for (const withCache of [undefined, cache]) {
      await expect(listMembers(registry, MISSING, {}, withCache)).rejects.toMatchObject({ code: 'not_found', message: 'tenant not found' });
    }
    expect(cache.memberLists.get(MISSING)).toBeUndefined();
    const refused = ['x', '["a"]', '{"email":"a"}', '["a",""]', '["a\\u0000","u"]', '["a","u\\u0000"]'].map((text) => (text === 'x' ? text : Buffer.from(text).toString('base64url')));
    for (const cursor of refused) await expect(listMembers(registry, TENANT, { cursor }), cursor).rejects.toMatchObject({ code: 'invalid_input' });
    expect(JSON.parse((await listMembers(registry, TENANT, { cursor: encodeMemberCursor({ email: 'zzz', userId: 'z' }) })).toString())).toEqual({ items: [] });
  });

  describe('with the registry cache', () => {
    const queries: MemberListQuery[] = [{}, { limit: 4 }, { limit: 3, status: 'inactive' }, { role: 'IT_ADMIN' }, { q: 'M1' }, { q: 'm6@', limit: 1 }, { q: 'É' }];

    it('answers every page with the bytes of the store page, reading the whole list once', async () => {
      const registry = setup(30);
      registry.members.seed({ tenantId: TENANT, userId: 'admin', email: 'Admin@example.test', name: 'Édith', roles: ['IT_ADMIN'], status: 'inactive', source: 'registry' });
      const cache = new RegistryCache({ ttlMs: 30_000 });
      const reads = counted(registry);
      for (const query of queries) {
        let cursor: string | undefined;
        do {
          const paged = { ...query, ...(cursor ? { cursor } : {}) };
          const fromStore = (await listMembers(registry, TENANT, paged)).toString();
          expect((await listMembers(registry, TENANT, paged, cache)).toString(), JSON.stringify(paged)).toBe(fromStore);
          cursor = (JSON.parse(fromStore) as Page).next_cursor;
        } while (cursor);
      }
      expect(reads.listing).toHaveBeenCalledTimes(1);
      // The store's pages above, and the q= beyond ASCII, which only the store lowers as it does.
      const storePages = reads.page.mock.calls.length;
      await listMembers(registry, TENANT, { q: 'm1' }, cache);
      await listMembers(registry, TENANT, { q: 'é' }, cache);
      expect(reads.page).toHaveBeenCalledTimes(storePages + 1);
      expect(cache.memberLists.stats).toMatchObject({ misses: 1 });
    });

    it('holds a tenant of more than MEMBER_LIST_HELD_AT_MOST members as too many: its pages come from the store, without reading it whole again', async () => {
      const registry = setup(MEMBER_LIST_HELD_AT_MOST + 1);
      const cache = new RegistryCache({ ttlMs: 30_000 });
      const reads = counted(registry);
      const first = await listMembers(registry, TENANT, {}, cache);
      expect(await listMembers(registry, TENANT, {}, cache)).toEqual(first);
      expect(reads.listing).toHaveBeenCalledTimes(1);
      expect(reads.page).toHaveBeenCalledTimes(2);
      expect(cache.memberLists.get(TENANT)).toBe('tooMany');
    });

    it('reads the whole list once for the requests that come while it is read; one that comes after an invalidation reads it again', async () => {
      const registry = setup(3);
      const cache = new RegistryCache({ ttlMs: 30_000 });
      const reads = counted(registry);
      const pages = [listMembers(registry, TENANT, {}, cache), listMembers(registry, TENANT, { limit: 1 }, cache)];
      cache.invalidateMemberList(TENANT);
      pages.push(listMembers(registry, TENANT, { status: 'active' }, cache));
      const [all, first, active] = (await Promise.all(pages)).map((page) => JSON.parse(page.toString()) as Page);
      expect(reads.listing).toHaveBeenCalledTimes(2);
      expect(all!.items).toHaveLength(3);
      expect(first!.items).toHaveLength(1);
      expect(active!.items).toHaveLength(3);
      expect(cache.memberLists.reads.size).toBe(0);
      // The second read began after the invalidation: it is the one held.
      expect(cache.memberLists.get(TENANT)).toBeDefined();
    });

    it('reads the store page, not the whole list, while the cache cannot hold it (suspended)', async () => {
      const registry = setup(3);
      const cache = new RegistryCache({ ttlMs: 30_000 });
      cache.suspend();
      const reads = counted(registry);
      expect((await pageOf(registry, {}, cache)).items).toHaveLength(3);
      expect(reads.listing).not.toHaveBeenCalled();
    });

    it('answers from a list stored within staleIfErrorMs when the store cannot be read, and not from an older one', async () => {
      const registry = setup(3);
      let now = 1_000_000;
      const cache = new RegistryCache({ ttlMs: 30_000, staleIfErrorMs: 60_000, now: () => now });
      const page = await listMembers(registry, TENANT, { limit: 2 }, cache);
      cache.suspend();
      const outage = new Error('connection refused');
      vi.spyOn(registry.members, 'page').mockRejectedValue(outage);
      expect(await listMembers(registry, TENANT, { limit: 2 }, cache)).toEqual(page);
      now += 60_001;
      await expect(listMembers(registry, TENANT, { limit: 2 }, cache)).rejects.toBe(outage);
    });
  });
});
