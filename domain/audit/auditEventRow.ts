import type { AuditEvent } from '../schemas/audit.ts';

/** An audit_events row's columns, metadata as its jsonb text (the CSV export writes them one by one). */
export interface AuditRow {
  id: string | number;
  action: string;
  tenant_id: string | null;
  project_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  actor_type: string | null;
  target_id: string | null;
  target_type: string | null;
  target_name: string | null;
  product: string | null;
  metadata: string | null;
  source_ip: string | null;
  user_agent: string | null;
  recorded_by: string | null;
  created_at: Date | string;
  hash: string;
}

/**
 * An event as the database rendered it when it was appended: `answer` is its AuditEvent JSON, the document GET
 * /v1/audit lists (absent fields left out: the spec's AuditEvent fields are optional, not nullable).
 */
export interface RenderedAuditRow {
  id: string | number;
  answer: string;
}

/** The AuditEvent an append answers with: its stored answer, so a POST answers what every list shows. */
export const auditEventOfAnswer = (row: RenderedAuditRow): AuditEvent => JSON.parse(row.answer) as AuditEvent;
