import type { AuditExportQuery } from '../schemas/audit.ts';
import type { AuditRepository } from './auditRepository.ts';
import { CSV_HEADER, csvLine, ndjsonLine } from './auditExportFormat.ts';

/**
 * Events per read: one keyset step over the id index, ~100 KB of text. 1,000 exported as fast, but each batch's rows
 * and text outlived a young-generation collection while the next was read, and the export raised the API's peak RSS
 * by ~15 MB instead of ~4 (docs/performance.md).
 */
export const EXPORT_BATCH = 250;

/**
 * Every matching event, oldest first, as text chunks of one batch each. The next batch is read only when the
 * consumer asks for it, so a slow reader holds back the reads and memory stays one batch whatever the count; no
 * connection is held between batches. The first batch is read before this returns, so a store failure is an error
 * response rather than a cut stream.
 */
export async function exportAuditEvents(audit: AuditRepository, query: AuditExportQuery): Promise<AsyncGenerator<string>> {
  const { format = 'ndjson', ...filter } = query;
  const line = format === 'csv' ? csvLine : ndjsonLine;
  const first = await audit.eventsAfter(filter, 0, EXPORT_BATCH);
  async function* chunks(): AsyncGenerator<string> {
    if (format === 'csv') yield CSV_HEADER;
    let batch = first;
    while (batch.length > 0) {
      yield batch.map(line).join('');
      if (batch.length < EXPORT_BATCH) return;
      batch = await audit.eventsAfter(filter, Number(batch[batch.length - 1]!.id), EXPORT_BATCH);
    }
  }
  return chunks();
}
