/**
 * The end of what a child process printed, kept while it starts: the error when it exits during start-up names what
 * it said (a port taken, a lock held, a bad flag) rather than only that it exited.
 */
export class OutputTail {
  readonly #limit: number;
  #text = '';

  constructor(limit = 2000) {
    this.#limit = limit;
  }

  hear(chunk: unknown): void {
    this.#text = (this.#text + String(chunk)).slice(-this.#limit);
  }

  get text(): string {
    return this.#text.trim();
  }
}
