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
  created_at: isoTimestamp(m.createdAt),
  updated_at: isoTimestamp(m.updatedAt),
});
