/**
 * A counting semaphore that refuses instead of queueing: at most `limit` holders at a time. A caller past the limit
 * is told no at once (and answered 429 by its service), so heavy work never piles up in memory behind a full limit.
 */
export class InFlightLimit {
  readonly #limit: number;
  #held = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get held(): number {
    return this.#held;
  }

  /** A slot and the function that gives it back (once, however often it is called), or undefined when none is free. */
  tryAcquire(): (() => void) | undefined {
    if (this.#held >= this.#limit) return undefined;
    this.#held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= 1;
    };
  }
}
