import { AppError, notFound } from '../errors.ts';
import type { RegistryCache } from '../reads/registryCache.ts';
import type { CachedMemberList } from '../reads/memberListCache.ts';
import type { RegistryContext } from '../registryContext.ts';
import { MEMBER_LIST_DEFAULT_LIMIT, type MemberListQuery } from '../schemas/members.ts';
import { decodeMemberCursor, encodeMemberCursor } from './memberListCursor.ts';
import type { MemberListFilter, MemberListPosition, MemberRepository } from './memberRepository.ts';
import { MEMBER_LIST_HEAD, memberListTail, toMember } from './memberResponse.ts';
import { TenantMemberList } from './tenantMemberList.ts';

/** A tenant with more members than this is listed from the store page by page: its whole list is never held. */
export const MEMBER_LIST_HELD_AT_MOST = 5_000;

/**
 * A tenant's members by e-mail (case-insensitive), then user id, a page as the MemberList body's JSON (UTF-8).
 * Computed from the tenant's list in the registry cache, read whole when the cache does not hold it (see
 * domain/reads/registryCache.ts for how soon a change is seen); else, for a tenant too large to hold or with the cache off,
 * the store's page, keyset-paginated, a deep page costing what the first one does. Both answer the same bytes. An
 * unknown tenant is 404.
 */
export async function listMembers({ stores }: RegistryContext, tenantId: string, query: MemberListQuery, cache?: RegistryCache): Promise<Buffer> {
  const limit = query.limit ?? MEMBER_LIST_DEFAULT_LIMIT;
  const after = query.cursor === undefined ? undefined : decodeMemberCursor(query.cursor);
  const filter: MemberListFilter = { role: query.role, status: query.status, prefix: query.q };
  try {
    const list = cache && (await memberListOf(stores.members, tenantId, cache));
    return list?.pageJson(filter, after, limit) ?? (await storedPage(stores.members, tenantId, filter, after, limit));
  } catch (error) {
    // The store cannot be read: a recent enough copy answers (RegistryCache.staleIfErrorMs), else the failure stands.
    const stale = error instanceof AppError ? undefined : cache?.memberLists.stale(tenantId)?.pageJson(filter, after, limit);
    if (stale === undefined) throw error;
    return stale;
  }
}

/** The tenant's list from the cache, or read whole and held there; undefined when the store's page is to answer. */
async function memberListOf(members: MemberRepository, tenantId: string, cache: RegistryCache): Promise<TenantMemberList | undefined> {
  const cached = cache.memberLists.get(tenantId) ?? (cache.active ? await sharedRead(members, tenantId, cache) : undefined);
  // Not held (the cache off or suspended: a list it would not keep costs more to read than the page), or too large.
  return cached === 'tooMany' ? undefined : cached;
}

/**
 * The tenant's whole list, read once for the requests that come while it is read: a burst of them after a change
 * would otherwise read it as many times. One that comes after an invalidation reads again, so a change this replica
 * made or heard of before the request is in its answer.
 */
async function sharedRead(members: MemberRepository, tenantId: string, cache: RegistryCache): Promise<CachedMemberList> {
  const generation = cache.generation();
  const running = cache.memberLists.reads.get(tenantId);
  if (running?.generation === generation) return running.list;
  const list = readMemberList(members, tenantId, cache, generation);
  cache.memberLists.reads.set(tenantId, { generation, list });
  try {
    return await list;
  } finally {
    if (cache.memberLists.reads.get(tenantId)?.list === list) cache.memberLists.reads.delete(tenantId);
  }
}

async function readMemberList(members: MemberRepository, tenantId: string, cache: RegistryCache, generation: number): Promise<CachedMemberList> {
  const listed = await members.listing(tenantId, MEMBER_LIST_HELD_AT_MOST);
  if (listed === undefined) throw notFound('tenant');
  const list = listed === 'tooMany' ? listed : new TenantMemberList(listed);
  cache.memberLists.put(tenantId, list, generation);
  return list;
}

async function storedPage(members: MemberRepository, tenantId: string, filter: MemberListFilter, after: MemberListPosition | undefined, limit: number): Promise<Buffer> {
  // One extra member tells whether another page follows.
  const rows = await members.page(tenantId, filter, after, limit + 1);
  if (!rows) throw notFound('tenant');
  const items = rows.slice(0, limit).map((row) => JSON.stringify(toMember(row.member)));
  return Buffer.from(MEMBER_LIST_HEAD + items.join(',') + memberListTail(rows.length > limit ? encodeMemberCursor(rows[limit - 1]!.position) : undefined));
}
