import type { AuditRow, RenderedAuditRow } from './auditEventRow.ts';
import { isoOfStoredTimestamp } from '../isoTimestamp.ts';

/** Every AuditEvent field, in the order of the CSV columns. */
export const CSV_COLUMNS = [
  'id', 'created_at', 'action', 'tenant_id', 'project_id', 'actor_id', 'actor_name', 'actor_type', 'target_id',
  'target_type', 'target_name', 'product', 'metadata', 'source_ip', 'user_agent', 'recorded_by', 'hash',
] as const;

/** The first characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell: one a spreadsheet would take for a formula gets a leading `'` (shown as text, never evaluated); then
 * RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
 */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`;

export function csvLine(row: AuditRow): string {
  const fields = CSV_COLUMNS.map((column) => {
    // The two columns the service generates, a positive integer and an ISO timestamp, need no neutralising.
    if (column === 'id') return String(Number(row.id));
    if (column === 'created_at') return isoOfStoredTimestamp(row.created_at);
    return csvField(row[column]);
  });
  return `${fields.join(',')}\r\n`;
}

/** One event per line, the same JSON document GET /v1/audit lists it as. */
export const ndjsonLine = (row: RenderedAuditRow): string => `${row.answer}\n`;
