import type { AuditRow } from '../../domain/audit/auditEventRow.ts';
import { CLOUD_EVENT_SOURCE, EXTENSION_OF_FIELD, sequenceOf } from '../../domain/events/cloudEvent.ts';

/**
 * The renderings the database stores at append, written again in JavaScript from an event's columns: the oracle the
 * tests hold the stored bytes to (JSON.stringify for every text, metadata spliced in as its jsonb text).
 */
const ANSWER_FIELDS = [
  'tenant_id', 'project_id', 'actor_id', 'actor_name', 'actor_type', 'target_id', 'target_type', 'target_name',
  'product', 'source_ip', 'user_agent', 'recorded_by',
] as const;

/** created_at as the columns are read for this oracle: to the microsecond, in UTC (`…T06:40:00.123456Z`). */
export type ColumnsOfEvent = Omit<AuditRow, 'created_at'> & { time: string };

/** The AuditEvent JSON of GET /v1/audit: created_at to the millisecond, absent fields left out. */
export function answerOfColumns(row: ColumnsOfEvent): string {
  let json = `{"id":${Number(row.id)},"action":${JSON.stringify(row.action)},"created_at":"${row.time.slice(0, 23)}Z"`;
  for (const key of ANSWER_FIELDS) {
    const value = row[key];
    if (value !== null) json += `,"${key}":${JSON.stringify(value)}`;
  }
  if (row.metadata !== null) json += `,"metadata":${row.metadata}`;
  return `${json},"hash":"${row.hash}"}`;
}

/** The CloudEvent of the events feed (SPEC-EXTENSIONS §16), chained from `previousHash`. */
export function cloudEventOfColumns(row: ColumnsOfEvent, previousHash: string): string {
  const id = String(Number(row.id));
  let json = `{"specversion":"1.0","id":"${id}","source":"${CLOUD_EVENT_SOURCE}","type":${JSON.stringify(row.action)},"time":"${row.time}"`;
  if (row.tenant_id !== null) json += `,"subject":${JSON.stringify(row.tenant_id)}`;
  json += ',"datacontenttype":"application/json"';
  if (row.metadata !== null) json += `,"data":${row.metadata}`;
  json += `,"sequence":"${sequenceOf(id)}","chainhash":"${row.hash}","chainprev":"${previousHash}"`;
  for (const [field, attribute] of Object.entries(EXTENSION_OF_FIELD)) {
    const value = row[field as keyof typeof EXTENSION_OF_FIELD];
    if (value !== null) json += `,"${attribute}":${JSON.stringify(value)}`;
  }
  return `${json}}`;
}

/**
 * The columns of events and the hash each was chained from, read for the oracle: the predecessor by id, or the hash
 * a retention's removal kept in audit_chain_links.
 */
export const COLUMNS_OF_EVENTS_SQL = `select e.id, e.action, e.tenant_id, e.project_id, e.actor_id, e.actor_name, e.actor_type, e.target_id,
    e.target_type, e.target_name, e.product, e.metadata::text as metadata, e.source_ip, e.user_agent, e.recorded_by, e.hash,
    to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as time,
    coalesce((select l.previous_hash from audit_chain_links l where l.id = e.id),
             (select p.hash from audit_events p where p.id < e.id order by p.id desc limit 1), repeat('0', 64)) as previous_hash,
    e.answer, e.cloud_event
  from audit_events e`;

export type StoredEvent = ColumnsOfEvent & { previous_hash: string; answer: string; cloud_event: string };
