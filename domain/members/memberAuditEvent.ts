import type { AuditAppend } from '../schemas/audit.ts';
import type { MemberRecord } from './memberRecord.ts';

/** A member's event: in its tenant, targeting the member by user id and named by its e-mail. */
export function memberAuditEvent(action: string, member: Pick<MemberRecord, 'tenantId' | 'userId' | 'email'>, metadata: Record<string, unknown>): AuditAppend {
  return {
    action,
    tenant_id: member.tenantId,
    target_id: member.userId,
    target_type: 'member',
    ...(member.email ? { target_name: member.email } : {}),
    metadata,
  };
}
