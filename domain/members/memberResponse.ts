import { isoTimestamp } from '../isoTimestamp.ts';
import type { Member } from '../schemas/members.ts';
import type { MemberRecord } from './memberRecord.ts';

export const toMember = (m: MemberRecord): Member => ({
  tenant_id: m.tenantId,
  user_id: m.userId,
  email: m.email,
  name: m.name,
  roles: m.roles,
  permissions: m.permissions,
  status: m.status,
  source: m.source,
  break_glass: m.breakGlass ?? false,
  created_at: isoTimestamp(m.createdAt),
  updated_at: isoTimestamp(m.updatedAt),
});

/**
 * A MemberList body is `MEMBER_LIST_HEAD`, its members serialised (`JSON.stringify(toMember(m))` each) and joined by
 * commas, then `memberListTail`: byte for byte what `JSON.stringify` of the whole `{ items, next_cursor? }` gives,
 * without serialising a member again.
 */
export const MEMBER_LIST_HEAD = '{"items":[';

export const memberListTail = (nextCursor: string | undefined): string =>
  nextCursor === undefined ? ']}' : `],"next_cursor":${JSON.stringify(nextCursor)}}`;
