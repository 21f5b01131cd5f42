import type { DestinationStream } from 'pino';

/** What the batch hands its lines to: pino's own destination (sonic-boom), which writes them asynchronously. */
export interface LineTarget extends DestinationStream {
  flush(cb?: (error?: Error) => void): void;
  flushSync(): void;
}

/**
 * The access lines written in one turn of the event loop, handed to the log's destination as one text at the turn's
 * end. sonic-boom appends each line to the text it has pending and measures that whole text's UTF-8 length on every
 * write, flattening it anew each time: under load, the largest part of what an access line cost (issue 40's profile
 * of the SCIM look-up). Handed over as one text, it is measured once a turn.
 * Lines still gathered when the process exits are handed over and written synchronously, so none is lost.
 */
export class TurnBatchedLines implements DestinationStream {
  readonly #target: LineTarget;
  #lines: string[] = [];
  #scheduled = false;

  constructor(target: LineTarget) {
    this.#target = target;
  }

  write(line: string): void {
    this.#lines.push(line);
    if (!this.#scheduled) {
      this.#scheduled = true;
      gathering.add(this);
      watchExit();
      setImmediate(this.#handOverAtTurnEnd);
    }
  }

  /** Hands what is gathered over, then flushes the destination (pino's `logger.flush` calls this). */
  flush(cb?: (error?: Error) => void): void {
    this.#handOver();
    this.#target.flush(cb);
  }

  flushSync(): void {
    this.#handOver();
    this.#target.flushSync();
  }

  readonly #handOverAtTurnEnd = (): void => {
    try {
      this.#handOver();
    } catch (error) {
      // A destination that takes no more lines (sonic-boom once destroyed) must not end the process from a callback.
      process.stderr.write(`access lines dropped: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  };

  #handOver(): void {
    this.#scheduled = false;
    gathering.delete(this);
    if (this.#lines.length === 0) return;
    const text = this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join('');
    this.#lines = [];
    this.#target.write(text);
  }
}

/** The batches holding lines not yet handed over: one exit listener for all of them, none kept once handed over. */
const gathering = new Set<TurnBatchedLines>();
let exitWatched = false;

function watchExit(): void {
  if (exitWatched) return;
  exitWatched = true;
  process.on('exit', () => {
    for (const batch of gathering) {
      try {
        batch.flushSync();
      } catch {
        // The destination is already closed or broken (EPIPE): nothing more can reach it.
      }
    }
  });
}
