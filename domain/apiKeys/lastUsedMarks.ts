export interface LastUsedMarksOptions {
  /** last_used_at is advanced at most once per this many seconds per key (API_KEY_LAST_USED_RESOLUTION_SECONDS). */
  resolutionSeconds: number;
  /** How long a mark waits for others to be written with it. */
  flushAfterMs?: number;
  onError: (error: unknown) => void;
}

/**
 * last_used_at of verified keys, written in the background a batch at a time: the keys marked within flushAfterMs
 * go out as one UPDATE. One statement per mark would turn a burst of keys crossing their resolution together (every
 * active key of a fleet, once a minute) into a burst of thousands of single-row writes on the verify hot path.
 * A mark is lost if the process dies before its flush; last_used_at is approximate by design (resolutionSeconds).
 */
export class LastUsedMarks {
  readonly #write: (ids: string[], resolutionSeconds: number) => Promise<void>;
  readonly #options: LastUsedMarksOptions;
  #pending = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  /** `write` is the repository's markUsed (ApiKeyRepository). */
  constructor(write: (ids: string[], resolutionSeconds: number) => Promise<void>, options: LastUsedMarksOptions) {
    this.#write = write;
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
    this.#flushing = this.#flushing.then(() => this.#writeMarks(ids));
    return this.#flushing;
  }

  async #writeMarks(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      await this.#write(ids, this.#options.resolutionSeconds);
    } catch (error) {
      this.#options.onError(error);
    }
  }
}
