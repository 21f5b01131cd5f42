import type { AuditAppend } from '../domain/schemas/audit.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { Sql } from './sql.ts';

/** The columns an export reads an event with (the CSV writes them one by one), metadata as its jsonb text. */
export const AUDIT_COLUMNS_METADATA_AS_TEXT =
  'id, action, tenant_id, project_id, actor_id, actor_name, actor_type, target_id, target_type, target_name, product, metadata::text as metadata, source_ip, user_agent, created_at, hash, recorded_by';

/** The columns an append writes (id, created_at and hash are the database's), in the order of auditInsertValues. */
const AUDIT_INSERT_COLUMN_TYPES = [
  ['action', 'text'], ['tenant_id', 'uuid'], ['project_id', 'uuid'], ['actor_id', 'text'], ['actor_name', 'text'],
  ['actor_type', 'text'], ['target_id', 'text'], ['target_type', 'text'], ['target_name', 'text'], ['product', 'text'],
  ['metadata', 'jsonb'], ['source_ip', 'text'], ['user_agent', 'text'], ['recorded_by', 'text'],
] as const;

export const AUDIT_INSERT_COLUMNS = AUDIT_INSERT_COLUMN_TYPES.map(([column]) => column).join(', ');

/** Each insert column's type, for a VALUES list that does not take its types from the insert. */
export const AUDIT_INSERT_TYPES: readonly string[] = AUDIT_INSERT_COLUMN_TYPES.map(([, type]) => type);

/** One `?` per insert column, for statements run through the ORM's execute. */
export const AUDIT_INSERT_PLACEHOLDERS = AUDIT_INSERT_COLUMN_TYPES.map(() => '?').join(', ');

export function auditInsertValues(event: AuditAppend, meta: RequestMeta): unknown[] {
  return [
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
    event.metadata === undefined && meta.auditMetadata === undefined ? null : JSON.stringify({ ...event.metadata, ...meta.auditMetadata }),
    meta.sourceIp ?? null,
    meta.userAgent ?? null,
    meta.recordedBy ?? null,
  ];
}

/** The insert's parameters as $1, $2, ... for statements on the pool. */
const AUDIT_INSERT_PARAMS = AUDIT_INSERT_COLUMN_TYPES.map((_, i) => `$${i + 1}`).join(', ');

/**
 * Appends one event with the request's source IP and user agent, inside the caller's transaction
 * (store/nativeTransaction.ts), so the event commits or rolls back together with the change it records.
 */
export async function appendAuditEvent(sql: Sql, event: AuditAppend, meta: RequestMeta): Promise<void> {
  await sql.query({
    name: 'audit_append_of_change',
    text: `insert into audit_events (${AUDIT_INSERT_COLUMNS}) values (${AUDIT_INSERT_PARAMS})`,
    values: auditInsertValues(event, meta),
  });
}
