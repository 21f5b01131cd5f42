import type { AuditStream } from '../schemas/auditStream.ts';
import type { AuditStreamRecord } from './auditStreamRepository.ts';
import { isoTimestamp } from '../isoTimestamp.ts';

/** Never the secret. */
export const toAuditStream = (s: AuditStreamRecord): AuditStream => ({
  id: s.id,
  url: s.url,
  filter: s.filter,
  created_at: isoTimestamp(s.createdAt),
  delivered_through_id: s.deliveredThroughId,
});
