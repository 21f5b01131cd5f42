import { describe, expect, it } from 'vitest';
import { EXPORT_BATCH, exportAuditEvents } from '../../../domain/audit/exportAuditEvents.ts';
import type { AuditRepository } from '../../../domain/audit/auditRepository.ts';
import type { RenderedAuditRow } from '../../../domain/audit/auditEventRow.ts';
import type { AuditReadLimits } from '../../../domain/audit/auditReadLimits.ts';
import { InFlightLimit } from '../../../domain/rateLimits/inFlightLimit.ts';
import { AppError } from '../../../domain/errors.ts';

const rowOf = (id: number): RenderedAuditRow => ({ id: String(id), answer: `{"id":${id}}` });

/** A log of `count` events, read in batches; the reads fail from `failFrom` on (a batch's first id). */
function auditOf(count: number, failFrom = Infinity) {
  const reads: { afterId: number; statementTimeoutMs?: number }[] = [];
  const audit = {
    async answersAfter(_filter: unknown, afterId: number, limit: number, options?: { statementTimeoutMs?: number }) {
      reads.push({ afterId, statementTimeoutMs: options?.statementTimeoutMs });
      if (afterId + 1 >= failFrom) throw new Error('read failed');
      return Array.from({ length: Math.max(0, Math.min(limit, count - afterId)) }, (_, i) => rowOf(afterId + i + 1));
    },
  } as unknown as AuditRepository;
  return { audit, reads };
}

const limitsOf = (slots: number): AuditReadLimits => ({ inFlight: new InFlightLimit(slots), statementTimeoutMs: 1234 });

describe('exportAuditEvents', () => {
  it('holds a slot of the heavy audit reads until its chunks end, and runs each read under the statement timeout', async () => {
    const { audit, reads } = auditOf(EXPORT_BATCH + 3);
    const limits = limitsOf(1);
    const chunks = await exportAuditEvents(audit, limits, {});
    expect(limits.inFlight.held).toBe(1);
    let lines = 0;
    for await (const chunk of chunks) lines += chunk.split('\n').length - 1;
    expect(lines).toBe(EXPORT_BATCH + 3);
    expect(limits.inFlight.held).toBe(0);
    expect(reads.every((read) => read.statementTimeoutMs === 1234)).toBe(true);
  });

  it('past the limit is refused with rate_limited before reading anything', async () => {
    const { audit, reads } = auditOf(10);
    const limits = limitsOf(1);
    await exportAuditEvents(audit, limits, {});
    await expect(exportAuditEvents(audit, limits, {})).rejects.toEqual(expect.objectContaining({ code: 'rate_limited' }));
    await expect(exportAuditEvents(audit, limits, {})).rejects.toBeInstanceOf(AppError);
    expect(reads).toHaveLength(1);
  });

  it('gives its slot back when its first read fails, when a later read fails, and when its consumer stops, even before the first chunk', async () => {
    const limits = limitsOf(1);
    await expect(exportAuditEvents(auditOf(10, 1).audit, limits, {})).rejects.toThrow('read failed');
    expect(limits.inFlight.held).toBe(0);

    const failingLater = await exportAuditEvents(auditOf(EXPORT_BATCH * 2, EXPORT_BATCH + 1).audit, limits, {});
    await failingLater.next();
    await expect(failingLater.next()).rejects.toThrow('read failed');
    expect(limits.inFlight.held).toBe(0);

    const stoppedUnread = await exportAuditEvents(auditOf(10).audit, limits, {});
    await stoppedUnread.return!();
    expect(limits.inFlight.held).toBe(0);

    const stoppedMidway = await exportAuditEvents(auditOf(EXPORT_BATCH * 2).audit, limits, {});
    await stoppedMidway.next();
    await stoppedMidway.return!();
    expect(limits.inFlight.held).toBe(0);
  });
});
