import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { AuditRepository } from './auditRepository.ts';

export interface SignInAuditLogOptions {
  /** How long an event waits for others to be written with it. */
  flushAfterMs?: number;
  /** Events per INSERT. */
  maxBatch?: number;
  /** Events held while the audit log cannot be written; past it a new one is dropped (and reported). */
  maxQueued?: number;
  /** A batch that could not be written (it stays queued), or events dropped past maxQueued. */
  onError: (error: unknown) => void;
  now?: () => number;
}

/**
 * The events of the claims path's sign-in decisions (`sign_in.refused`, `member.break_glass_used`), appended without a
 * sign-in ever waiting on the audit log: queued in memory and written a batch per statement (the repository's
 * insertBatch) within flushAfterMs. A batch that fails stays queued, first in line, and is tried again at the next
 * flush; `close` writes everything queued before the process stops, so a clean stop loses none.
 * The same event (its key) within its window is recorded once: a refused refresh retried in a loop, or a break-glass
 * session's every token, is one event, not one per request.
 */
export class SignInAuditLog {
  readonly #insert: AuditRepository['insertBatch'];
  readonly #flushAfterMs: number;
  readonly #maxBatch: number;
  readonly #maxQueued: number;
  readonly #onError: (error: unknown) => void;
  readonly #now: () => number;
  /** Keys recorded, until when a repeat is not recorded again. */
  readonly #recent = new Map<string, number>();
  #queue: { event: AuditAppend; meta: RequestMeta }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  #closed = false;

  /** `insert` is the audit repository's insertBatch. */
  constructor(insert: AuditRepository['insertBatch'], options: SignInAuditLogOptions) {
    this.#insert = insert;
    this.#flushAfterMs = options.flushAfterMs ?? 200;
    this.#maxBatch = options.maxBatch ?? 200;
    this.#maxQueued = options.maxQueued ?? 10_000;
    this.#onError = options.onError;
    this.#now = options.now ?? Date.now;
  }

  /** Events waiting to be written. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Queues the event unless one of the same key was recorded within `windowMs`; returns at once. */
  record(key: string, windowMs: number, event: AuditAppend, meta: RequestMeta): void {
    const now = this.#now();
    const until = this.#recent.get(key);
    if (until !== undefined && until > now) return;
    if (this.#queue.length >= this.#maxQueued) {
      this.#onError(new Error(`the sign-in audit queue is full (${this.#maxQueued} events); ${event.action} was dropped`));
      return;
    }
    this.#remember(key, now + windowMs, now);
    this.#queue.push({ event, meta });
    if (!this.#closed) this.#timer ??= setTimeout(() => void this.flush(), this.#flushAfterMs);
  }

  /** Writes every queued event now; resolves once they (and any flush already running) are written or failed. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flushing = this.#flushing.then(() => this.#writeQueued());
    return this.#flushing;
  }

  /** No more timers; everything queued is written (a failure is reported: the process is stopping). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  async #writeQueued(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatch);
      try {
        await this.#insert(batch);
      } catch (error) {
        this.#queue.unshift(...batch);
        this.#onError(error);
        if (!this.#closed) this.#timer ??= setTimeout(() => void this.flush(), Math.max(this.#flushAfterMs, 1_000));
        return;
      }
    }
  }

  /** Remembers the key until `until`; past maxQueued keys, the oldest remembered go first (a repeat may then be recorded again). */
  #remember(key: string, until: number, now: number): void {
    this.#recent.delete(key);
    this.#recent.set(key, until);
    if (this.#recent.size <= this.#maxQueued) return;
    for (const [old, oldUntil] of this.#recent) {
      if (oldUntil > now && this.#recent.size <= this.#maxQueued) break;
      this.#recent.delete(old);
    }
  }
}
