import type { RetainedRows } from './retainedRows.ts';

/** The retained rows' removal (store/postgresRetainedRows.ts). */
export interface RetainedRowsStore {
  /**
   * Removes at most `limit` rows of `rows` that ended before `endedBefore` (retainedRows.ts says when each kind
   * ends), oldest first, in one short transaction, and answers how many went. A row that has not ended is never
   * touched; a row another transaction holds is left for the next call.
   */
  removeEnded(rows: RetainedRows, endedBefore: Date, limit: number): Promise<number>;
}
