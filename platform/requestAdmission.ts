import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

const ARRIVED_AT = Symbol('arrivedAt');

type ArrivedRequest = IncomingMessage & { [ARRIVED_AT]?: number };

/**
 * When the request reached the server (performance.now()), before any wait for a slot; the time a client sees
 * starts there, so the access line and the duration histogram measure from it. Now, for a request it never saw.
 */
export function arrivalOf(req: IncomingMessage): number {
  return (req as ArrivedRequest)[ARRIVED_AT] ?? performance.now();
}

export interface RequestAdmissionOptions {
  /** Requests that run in the handler at once; 0: no limit, every request runs as it arrives. */
  limit: number;
  /** A request holding its slot this long gives it back (it keeps running): it waits on I/O, not on this process's CPU. */
  releaseAfterMs: number;
  /** Requests that may wait for a slot at once; one more is refused at once instead. Default: no bound. */
  maxWaiting?: number;
  /** Requests that neither wait nor take a slot, so no load delays or refuses them (the probes). */
  bypasses?: (req: IncomingMessage) => boolean;
}

/**
 * How many requests may wait per slot unless told otherwise (HTTP_MAX_QUEUED): since a slot is given back after
 * `releaseAfterMs` at the latest, a full queue drains in a few of those even when every request stalls, and each waiting
 * request holds only Node's request and response.
 */
export const WAITING_PER_SLOT = 16;

/**
 * Lets at most `limit` requests into the handler at once; later ones wait, parsed but untouched, in arrival order, and
 * past `maxWaiting` waiting ones the next is handed to the refusal instead, so overload is answered, not queued forever.
 * Why: under a closed loop of many connections a list page waited in the process longer than the time between two
 * scavenges, so everything Koa and the handler made for it was promoted and the old generation was marked again and
 * again (docs/performance.md). A waiting request holds only Node's request and response.
 * A slot is given back when the response closes (answered, or the client gone) or after `releaseAfterMs` (exports
 * stream for seconds; a dead pipelined response may never close), so a slow request delays the others by at most that.
 */
export class RequestAdmission {
  /** Set by listenerFor, before any server has the listener that calls it. */
  #handler: RequestListener = () => {};
  #refuse: RequestListener = () => {};
  readonly #limit: number;
  readonly #releaseAfterMs: number;
  readonly #maxWaiting: number;
  readonly #bypasses: (req: IncomingMessage) => boolean;
  /** The requests holding a slot, by their response, with when they took it, in that order. */
  readonly #running = new Map<ServerResponse, number>();
  readonly #waiting: ServerResponse[] = [];
  #releaseTimer: NodeJS.Timeout | undefined;
  /** One listener for every response's 'close' (Node calls it with the response as `this`): no closure a request. */
  readonly #onClose: (this: ServerResponse) => void;

  constructor(options: RequestAdmissionOptions) {
    this.#limit = options.limit;
    this.#releaseAfterMs = options.releaseAfterMs;
    this.#maxWaiting = options.maxWaiting ?? Infinity;
    this.#bypasses = options.bypasses ?? (() => false);
    const admission = this;
    this.#onClose = function (this: ServerResponse) {
      admission.#closed(this);
    };
  }

  /** Requests waiting for a slot now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Requests holding a slot now. */
  get running(): number {
    return this.#running.size;
  }

  /**
   * The server's request listener, admitting requests into `handler` and handing those with no room to wait to `refuse`
   * (made apart, so metrics can read the counts first).
   */
  listenerFor(handler: RequestListener, refuse: RequestListener): RequestListener {
    this.#handler = handler;
    this.#refuse = refuse;
    return this.#listener;
  }

  readonly #listener = (req: IncomingMessage, res: ServerResponse): void => {
    const now = performance.now();
    (req as ArrivedRequest)[ARRIVED_AT] = now;
    if (this.#limit <= 0 || this.#bypasses(req)) {
      this.#handler(req, res);
      return;
    }
    if (this.#running.size < this.#limit) {
      res.on('close', this.#onClose);
      this.#run(res, now);
    } else if (this.#waiting.length < this.#maxWaiting) {
      res.on('close', this.#onClose);
      this.#waiting.push(res);
      this.#armRelease();
    } else {
      this.#refuse(req, res);
    }
  };

  #run(res: ServerResponse, admittedAt: number): void {
    this.#running.set(res, admittedAt);
    this.#handler(res.req, res);
  }

  #closed(res: ServerResponse): void {
    if (this.#running.delete(res)) {
      this.#admitWaiting();
      return;
    }
    // Gone while waiting: it never reaches the handler.
    const index = this.#waiting.indexOf(res);
    if (index >= 0) this.#waiting.splice(index, 1);
  }

  #admitWaiting(): void {
    const now = performance.now();
    while (this.#running.size < this.#limit && this.#waiting.length > 0) this.#run(this.#waiting.shift()!, now);
  }

  /** One timer while requests wait, due when the oldest slot expires; none while nothing waits. */
  #armRelease(): void {
    if (this.#releaseTimer !== undefined || this.#waiting.length === 0) return;
    const oldest = this.#running.values().next();
    const dueInMs = oldest.done ? 0 : Math.max(0, oldest.value + this.#releaseAfterMs - performance.now());
    this.#releaseTimer = setTimeout(() => this.#releaseExpired(), dueInMs).unref();
  }

  #releaseExpired(): void {
    this.#releaseTimer = undefined;
    const expiredBefore = performance.now() - this.#releaseAfterMs;
    for (const [res, admittedAt] of this.#running) {
      if (admittedAt > expiredBefore) break;
      this.#running.delete(res);
    }
    this.#admitWaiting();
    this.#armRelease();
  }
}
