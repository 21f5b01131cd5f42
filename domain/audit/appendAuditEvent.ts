import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditAppend, AuditEvent } from '../schemas/audit.ts';
import type { RequestMeta } from '../requestMeta.ts';
import { AUDIT_COLUMNS, toAuditEvent, type AuditRow } from './auditEventRow.ts';

/**
 * Appends one event with the request's source IP and user agent. Pass the transaction's EntityManager so the
 * event commits or rolls back together with the change it records.
 */
export async function appendAuditEvent(em: EntityManager, event: AuditAppend, meta: RequestMeta): Promise<AuditEvent> {
  const rows = await em.execute<AuditRow[]>(
    `insert into audit_events (action, tenant_id, project_id, actor_id, actor_name, actor_type, target_id, target_type,
       target_name, product, metadata, source_ip, user_agent)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${AUDIT_COLUMNS}`,
    [
      event.action,
      event.tenant_id ?? null,
      event.project_id ?? null,
      event.actor_id ?? meta.actorId ?? null,
      event.actor_name ?? null,
      event.actor_type ?? meta.actorType ?? null,
      event.target_id ?? null,
      event.target_type ?? null,
      event.target_name ?? null,
      event.product ?? null,
      event.metadata === undefined ? null : JSON.stringify(event.metadata),
      meta.sourceIp ?? null,
      meta.userAgent ?? null,
    ],
  );
  return toAuditEvent(rows[0]!);
}
