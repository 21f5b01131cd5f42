import type { AuditStream } from '../schemas/auditStream.ts';
import type { AuditStreamRecord } from './auditStreamRepository.ts';

/** Never the secret. */
export const toAuditStream = (s: AuditStreamRecord): AuditStream => ({
  id: s.id,
  url: s.url,
  filter: s.filter,
  created_at: s.createdAt.toISOString(),
  delivered_through_id: s.deliveredThroughId,
});
