import type { AuditAppend, AuditEvent } from '../schemas/audit.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { Sql } from '../sql.ts';
import { AUDIT_COLUMNS, toAuditEvent, type AuditRow } from './auditEventRow.ts';
import { AUDIT_INSERT_COLUMNS, auditInsertValues } from './appendAuditEvent.ts';

interface Pending {
  values: unknown[];
  resolve: (event: AuditEvent) => void;
  reject: (error: unknown) => void;
}

const COLUMN_COUNT = 13;

/**
 * POST /v1/audit under load: appends that arrive while earlier ones are being written are written together, as one
 * multi-row INSERT (one statement, one commit, one WAL flush), instead of one round trip and one commit each.
 * Nothing waits for a batch to fill: with no insert in flight an append is written at once, alone. Each caller is
 * answered once its own row is committed, with its own id and created_at (clock_timestamp() per row). Should a
 * batch fail, its appends are retried one by one, so one bad event cannot fail the others.
 */
export class AuditAppendBatcher {
  readonly #sql: () => Promise<Sql>;
  readonly #maxInFlight: number;
  readonly #maxBatch: number;
  #pending: Pending[] = [];
  #inFlight = 0;

  constructor(sql: () => Promise<Sql>, options: { maxInFlight?: number; maxBatch?: number } = {}) {
    this.#sql = sql;
    this.#maxInFlight = options.maxInFlight ?? 2;
    this.#maxBatch = options.maxBatch ?? 64;
  }

  append(event: AuditAppend, meta: RequestMeta): Promise<AuditEvent> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ values: auditInsertValues(event, meta), resolve, reject });
      this.#drain();
    });
  }

  #drain(): void {
    while (this.#inFlight < this.#maxInFlight && this.#pending.length > 0) {
      const batch = this.#pending.splice(0, this.#maxBatch);
      this.#inFlight += 1;
      void this.#write(batch).finally(() => {
        this.#inFlight -= 1;
        this.#drain();
      });
    }
  }

  async #write(batch: Pending[]): Promise<void> {
    try {
      const rows = await this.#insert(batch.map((p) => p.values));
      batch.forEach((p, i) => p.resolve(toAuditEvent(rows[i]!)));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const p of batch) {
        await this.#insert([p.values]).then((rows) => p.resolve(toAuditEvent(rows[0]!)), p.reject);
      }
    }
  }

  /** Rows in the order of `tuples`: identity values are drawn row by row in VALUES order, so sorting by id restores it. */
  async #insert(tuples: unknown[][]): Promise<AuditRow[]> {
    const placeholders = tuples
      .map((_, row) => `(${Array.from({ length: COLUMN_COUNT }, (__, col) => `$${row * COLUMN_COUNT + col + 1}`).join(', ')})`)
      .join(', ');
    const sql = await this.#sql();
    const { rows } = await sql.query<AuditRow>({
      name: `audit_append_${tuples.length}`,
      text: `insert into audit_events (${AUDIT_INSERT_COLUMNS}) values ${placeholders} returning ${AUDIT_COLUMNS}`,
      values: tuples.flat(),
    });
    if (rows.length !== tuples.length) throw new Error(`audit append wrote ${rows.length} of ${tuples.length} rows`);
    return rows.sort((a, b) => Number(a.id) - Number(b.id));
  }
}
