import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import { MEMBER_LIST_DEFAULT_LIMIT, type MemberListQuery } from '../schemas/members.ts';
import { decodeMemberCursor, encodeMemberCursor } from './memberListCursor.ts';
import type { MemberRecord } from './memberRecord.ts';

/**
 * A tenant's members by e-mail (case-insensitive), then user id, keyset-paginated: a deep page costs what the first
 * one does. An unknown tenant is 404.
 */
export async function listMembers({ stores }: RegistryContext, tenantId: string, query: MemberListQuery): Promise<{ items: MemberRecord[]; nextCursor?: string }> {
  const limit = query.limit ?? MEMBER_LIST_DEFAULT_LIMIT;
  const after = query.cursor === undefined ? undefined : decodeMemberCursor(query.cursor);
  // One extra member tells whether another page follows.
  const rows = await stores.members.page(tenantId, { role: query.role, status: query.status, prefix: query.q }, after, limit + 1);
  if (!rows) throw notFound('tenant');
  const items = rows.slice(0, limit).map((row) => row.member);
  if (rows.length <= limit) return { items };
  return { items, nextCursor: encodeMemberCursor(rows[limit - 1]!.position) };
}
