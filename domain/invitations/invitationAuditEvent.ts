import type { AuditAppend } from '../schemas/audit.ts';
import type { InvitationRecord } from './invitationRecord.ts';

/** An invitation's event: in its tenant, targeting the invitation by id and named by its e-mail. */
export function invitationAuditEvent(action: string, invitation: Pick<InvitationRecord, 'id' | 'tenantId' | 'email'>, metadata: Record<string, unknown>): AuditAppend {
  return { action, tenant_id: invitation.tenantId, target_id: invitation.id, target_type: 'invitation', target_name: invitation.email, metadata };
}
