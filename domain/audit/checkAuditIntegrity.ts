import type { AuditIntegrity } from '../schemas/audit.ts';
import type { AuditRepository } from './auditRepository.ts';
import { takeAuditReadSlot, type AuditReadLimits } from './auditReadLimits.ts';

/**
 * GET /v1/audit/integrity: the chain recomputed over an id range (default: the whole log), in one of the heavy audit
 * reads' slots and under their statement timeout: a check of a large log costs the database a pass over all of it.
 */
export async function checkAuditIntegrity(audit: AuditRepository, limits: AuditReadLimits, range: { from_id?: number; to_id?: number }): Promise<AuditIntegrity> {
  const release = takeAuditReadSlot(limits);
  try {
    return await audit.integrity(range.from_id, range.to_id, { statementTimeoutMs: limits.statementTimeoutMs });
  } finally {
    release();
  }
}
