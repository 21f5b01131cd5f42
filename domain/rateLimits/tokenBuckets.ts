/**
 * Token buckets, one per key (a token's client, or an address): each holds up to `burst` tokens and refills at
 * `ratePerSecond`; a request takes one. A fixed window would let a client spend two windows' budget across a window
 * edge; a bucket bounds every interval. In-process, so each replica enforces its own budget (docs/security.md).
 */
export interface TokenBucketOptions {
  ratePerSecond: number;
  burst: number;
  /** Buckets kept; past it the least recently created is forgotten (it refills to full, the safe direction for memory). */
  maxBuckets?: number;
  now?: () => number;
}

export type Take = { allowed: true } | { allowed: false; retryAfterMs: number };

const ALLOWED: Take = { allowed: true };

export class TokenBuckets {
  readonly #rate: number;
  readonly #burst: number;
  readonly #max: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(options: TokenBucketOptions) {
    if (!(options.ratePerSecond > 0) || !(options.burst >= 1)) throw new Error('a token bucket needs a positive rate and a burst of at least 1');
    this.#rate = options.ratePerSecond / 1000;
    this.#burst = options.burst;
    this.#max = options.maxBuckets ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  take(key: string): Take {
    const now = this.#now();
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= this.#max) this.#buckets.delete(this.#buckets.keys().next().value as string);
      bucket = { tokens: this.#burst, at: now };
      this.#buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.#burst, bucket.tokens + (now - bucket.at) * this.#rate);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return ALLOWED;
    }
    return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / this.#rate) };
  }

  get size(): number {
    return this.#buckets.size;
  }
}
