import type { Sql } from '../sql.ts';

export interface LastUsedMarksOptions {
  /** last_used_at is advanced at most once per this many seconds per key (API_KEY_LAST_USED_RESOLUTION_SECONDS). */
  resolutionSeconds: number;
  /** How long a mark waits for others to be written with it. */
  flushAfterMs?: number;
  onError: (error: unknown) => void;
}

/** Ids per statement: one array parameter, well inside PostgreSQL's limits. */
const IDS_PER_STATEMENT = 5_000;

/**
 * last_used_at of verified keys, written in the background a batch at a time: the keys marked within flushAfterMs
 * go out as one UPDATE. One statement per mark would turn a burst of keys crossing their resolution together (every
 * active key of a fleet, once a minute) into a burst of thousands of single-row writes on the verify hot path.
 * A mark is lost if the process dies before its flush; last_used_at is approximate by design (resolutionSeconds).
 */
export class LastUsedMarks {
  readonly #sql: () => Promise<Sql>;
  readonly #options: LastUsedMarksOptions;
  #pending = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(sql: () => Promise<Sql>, options: LastUsedMarksOptions) {
    this.#sql = sql;
    this.#options = options;
  }

  mark(keyId: string): void {
    this.#pending.add(keyId);
    this.#timer ??= setTimeout(() => void this.flush(), this.#options.flushAfterMs ?? 250);
  }

  /** Writes every pending mark now; resolves once they (and any flush already running) are written. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const ids = [...this.#pending];
    this.#pending = new Set();
    this.#flushing = this.#flushing.then(() => this.#write(ids));
    return this.#flushing;
  }

  async #write(ids: string[]): Promise<void> {
    for (let at = 0; at < ids.length; at += IDS_PER_STATEMENT) {
      try {
        await (await this.#sql()).query({
          name: 'api_keys_last_used',
          text: `update api_keys set last_used_at = now()
                  where id = any($1::uuid[]) and (last_used_at is null or last_used_at < now() - make_interval(secs => $2))`,
          values: [ids.slice(at, at + IDS_PER_STATEMENT), this.#options.resolutionSeconds],
        });
      } catch (error) {
        this.#options.onError(error);
      }
    }
  }
}
