import type { AuditAppend } from '../schemas/audit.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { RenderedAuditRow } from './auditEventRow.ts';
import type { AuditRepository } from './auditRepository.ts';
import { AppError } from '../errors.ts';

interface Pending {
  append: { event: AuditAppend; meta: RequestMeta };
  resolve: (row: RenderedAuditRow) => void;
  reject: (error: unknown) => void;
}

/**
 * POST /v1/audit under load: appends that arrive while earlier ones are being written are written together, as one
 * multi-row INSERT (one statement, one commit, one WAL flush), instead of one round trip and one commit each.
 * Nothing waits for a batch to fill: with no insert in flight an append is written at once, alone. Each caller is
 * answered once its own row is committed, with its own id and created_at (clock_timestamp() per row), as the answer
 * the database rendered: the route sends that text as it is. Should a
 * batch fail, its appends are retried one by one, so one bad event cannot fail the others.
 * The queue is bounded (`maxQueued`): when the database is slower than the appends arrive, the append past the bound is
 * refused at once with `unavailable` (503 with Retry-After) rather than held in memory until the process runs out.
 */
export class AuditAppendBatcher {
  readonly #insert: AuditRepository['insertBatch'];
  readonly #maxInFlight: number;
  readonly #maxBatch: number;
  readonly #maxQueued: number;
  #pending: Pending[] = [];
  #inFlight = 0;

  constructor(insert: AuditRepository['insertBatch'], options: { maxInFlight?: number; maxBatch?: number; maxQueued?: number } = {}) {
    this.#insert = insert;
    // One: the chain head's lock writes batches one after another anyway, and a second batch in flight only waited on
    // it, halving the batches and adding a lock wait to each.
    this.#maxInFlight = options.maxInFlight ?? 1;
    this.#maxBatch = options.maxBatch ?? 64;
    this.#maxQueued = options.maxQueued ?? 2_000;
  }

  /** Appends waiting for their turn (not yet in an INSERT). */
  get queued(): number {
    return this.#pending.length;
  }

  append(event: AuditAppend, meta: RequestMeta): Promise<RenderedAuditRow> {
    if (this.#pending.length >= this.#maxQueued) {
      return Promise.reject(new AppError('unavailable', `the audit log is behind by ${this.#pending.length} appends; try again`));
    }
    return new Promise((resolve, reject) => {
      this.#pending.push({ append: { event, meta }, resolve, reject });
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
      const rows = await this.#insert(batch.map((p) => p.append));
      batch.forEach((p, i) => p.resolve(rows[i]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const p of batch) {
        await this.#insert([p.append]).then((rows) => p.resolve(rows[0]!), p.reject);
      }
    }
  }
}
