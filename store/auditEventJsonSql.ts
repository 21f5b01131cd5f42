import { isoTimestampSql, jsonStringSql, optionalFieldSql } from './jsonTextSql.ts';

/** The optional text fields of an AuditEvent, in the order the API writes them (domain/audit/auditEventRow.ts). */
const OPTIONAL_TEXT = [
  'tenant_id', 'project_id', 'actor_id', 'actor_name', 'actor_type', 'target_id', 'target_type', 'target_name',
  'product', 'source_ip', 'user_agent', 'recorded_by',
] as const;

/**
 * An audit_events row as the API's AuditEvent JSON (toAuditEvent's document, byte for byte): absent fields left out,
 * metadata spliced in as its jsonb text, as auditEventJson does.
 */
export const AUDIT_EVENT_JSON_SQL = `'{"id":' || id || ',"action":' || ${jsonStringSql('action')}
  || ',"created_at":"' || ${isoTimestampSql('created_at')} || '"'
  || ${OPTIONAL_TEXT.map((column) => optionalFieldSql(column, jsonStringSql(column))).join('\n  || ')}
  || ${optionalFieldSql('metadata', 'metadata::text')} || ',"hash":"' || hash || '"}'`;
