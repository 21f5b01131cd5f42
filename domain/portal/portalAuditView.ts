import type { ExportView } from '../audit/exportAuditEvents.ts';
import type { AuditEvent } from '../schemas/audit.ts';

/**
 * The tenant's fields that are the operator's, not the customer's (SPEC-EXTENSIONS §13): its sales owner and its
 * ERP and payment processor ids, as tenant events name them in their metadata (tenant.activated's body,
 * tenant.updated's `changes`).
 */
export const OPERATOR_TENANT_FIELDS: ReadonlySet<string> = new Set(['sales_owner', 'erp_customer_id', 'payment_cust_id']);

/** A metadata value without the operator's tenant fields, at any depth (a change's diff names them as keys). */
export function withoutOperatorFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutOperatorFields);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !OPERATOR_TENANT_FIELDS.has(key)).map(([key, v]) => [key, withoutOperatorFields(v)]));
}

/**
 * What the admin portal shows its customer of an event: no client address or user agent (an operator's, or another
 * session's), no operator tenant field; the other fields keep their order. The hash stays, though it no longer
 * recomputes over what is shown.
 */
export function portalAuditEvent(event: AuditEvent): AuditEvent {
  const { source_ip: _ip, user_agent: _agent, ...shown } = event;
  return event.metadata === undefined ? shown : { ...shown, metadata: withoutOperatorFields(event.metadata) as AuditEvent['metadata'] };
}

/** The same for the export's rows: an answer for NDJSON, columns for CSV. */
export const portalAuditExport: ExportView = {
  answer: (row) => ({ id: row.id, answer: JSON.stringify(portalAuditEvent(JSON.parse(row.answer) as AuditEvent)) }),
  columns: (row) => ({
    ...row,
    source_ip: null,
    user_agent: null,
    metadata: row.metadata === null ? null : JSON.stringify(withoutOperatorFields(JSON.parse(row.metadata))),
  }),
};
