import { inspect } from 'node:util';

const REDACTED = '[redacted]';

/**
 * A credential that prints as [redacted] however it is turned into text (template string, JSON, util.inspect, pino),
 * so a settings object can be logged or end up in an error by accident without leaking it. Only `reveal()` gives the value.
 */
export class RedactedSecret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}
