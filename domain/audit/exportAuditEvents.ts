import type { AuditExportQuery } from '../schemas/audit.ts';
import type { AuditRow, RenderedAuditRow } from './auditEventRow.ts';
import type { AuditRepository } from './auditRepository.ts';
import { CSV_HEADER, csvLine, ndjsonLine } from './auditExportFormat.ts';
import { takeAuditReadSlot, type AuditReadLimits } from './auditReadLimits.ts';

/**
 * Events per read: one keyset step over the id index. Larger batches exported no faster, but each batch's rows and
 * text outlived a young-generation collection while the next was read, which made the export the API's peak RSS
 * (docs/performance.md).
 */
export const EXPORT_BATCH = 250;

/** What a reader may see of each event, in either form an export reads it: its answer (NDJSON), its columns (CSV). */
export interface ExportView {
  answer(row: RenderedAuditRow): RenderedAuditRow;
  columns(row: AuditRow): AuditRow;
}

/**
 * Every matching event, oldest first, as text chunks of one batch each. The next batch is read only when the
 * consumer asks for it, so a slow reader holds back the reads and memory stays one batch whatever the count; no
 * connection is held between batches. The first batch is read before this returns, so a store failure is an error
 * response rather than a cut stream.
 *
 * The export holds one of the heavy audit reads' slots from the first read until its chunks end, fail, or their
 * consumer stops (a client that went away), and each read runs under their statement timeout. `shown` is what a reader
 * may see of each event (the admin portal's customer: portalAuditView.ts).
 */
export async function exportAuditEvents(
  audit: AuditRepository,
  limits: AuditReadLimits,
  query: AuditExportQuery,
  shown?: ExportView,
): Promise<AsyncIterableIterator<string>> {
  const { format = 'ndjson', ...filter } = query;
  const options = { statementTimeoutMs: limits.statementTimeoutMs };
  if (format === 'cloudevents') {
    // The events feed's documents, each with what its chain hash covers: a copy `npm run verify-events` checks.
    const read = (afterId: number) => audit.chainedEventsAfter(filter, afterId, EXPORT_BATCH, options);
    return exportedBatches(limits, read, (row) => `${row.cloud_event}\n`);
  }
  if (format === 'csv') {
    const line = shown ? (row: AuditRow) => csvLine(shown.columns(row)) : csvLine;
    return exportedBatches(limits, (afterId) => audit.columnsAfter(filter, afterId, EXPORT_BATCH, options), line, CSV_HEADER);
  }
  const line = shown ? (row: RenderedAuditRow) => ndjsonLine(shown.answer(row)) : ndjsonLine;
  return exportedBatches(limits, (afterId) => audit.answersAfter(filter, afterId, EXPORT_BATCH, options), line);
}

/**
 * The batches of one export as text chunks, in one of the heavy reads' slots from the first read to the end; the
 * first batch is read before this returns, so a store failure is an error response rather than a cut stream.
 */
async function exportedBatches<R extends { id: string | number }>(
  limits: AuditReadLimits,
  read: (afterId: number) => Promise<R[]>,
  line: (row: R) => string,
  header?: string,
): Promise<AsyncIterableIterator<string>> {
  const release = takeAuditReadSlot(limits);
  const first = await read(0).catch((error: unknown) => {
    release();
    throw error;
  });
  async function* chunks(): AsyncGenerator<string> {
    if (header !== undefined) yield header;
    let batch = first;
    while (batch.length > 0) {
      yield batch.map(line).join('');
      if (batch.length < EXPORT_BATCH) return;
      batch = await read(Number(batch[batch.length - 1]!.id));
    }
  }
  return releasingWhenDone(chunks(), release);
}

/**
 * `chunks`, calling `release` once they end, fail or are returned early: also when returned before their first read,
 * which a generator's own `finally` would miss (it runs only once the generator has started).
 */
function releasingWhenDone(chunks: AsyncGenerator<string>, release: () => void): AsyncIterableIterator<string> {
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      try {
        const result = await chunks.next();
        if (result.done) release();
        return result;
      } catch (error) {
        release();
        throw error;
      }
    },
    async return(value?: unknown) {
      release();
      return chunks.return(value);
    },
    async throw(error?: unknown) {
      release();
      return chunks.throw(error);
    },
  };
}
