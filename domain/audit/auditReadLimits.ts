import { AppError } from '../errors.ts';
import type { InFlightLimit } from '../rateLimits/inFlightLimit.ts';

/**
 * What bounds the audit log's two reads that may walk all of it, the integrity check and the export
 * (SPEC-EXTENSIONS §12): slots shared by both in this process (AUDIT_EXPORTS_IN_FLIGHT), and a time limit on each of
 * their statements (AUDIT_STATEMENT_TIMEOUT_MS), so a caller cannot occupy the database's connections and CPU.
 */
export interface AuditReadLimits {
  inFlight: InFlightLimit;
  statementTimeoutMs: number;
}

/** A slot of the heavy audit reads, or 429 `rate_limited` (with Retry-After) when every one is taken. */
export function takeAuditReadSlot(limits: AuditReadLimits): () => void {
  const release = limits.inFlight.tryAcquire();
  if (!release) throw new AppError('rate_limited', 'as many audit exports and integrity checks as this replica allows are running; retry after Retry-After seconds');
  return release;
}

/** A statement of an integrity check or an export ran past its time limit (what the store answers then). */
export const auditReadTimedOut = (statementTimeoutMs: number) =>
  new AppError(
    'unavailable',
    `the audit log read took longer than ${statementTimeoutMs} ms (AUDIT_STATEMENT_TIMEOUT_MS) and was stopped: narrow it (an id range for the integrity check, filters or a time range for the export)`,
  );
