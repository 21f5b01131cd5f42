import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../../domain/rateLimits/tokenBuckets.ts';

const clock = () => {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
};

describe('TokenBuckets', () => {
  it('allows a burst, then refuses with the time until the next token', () => {
    const time = clock();
    const buckets = new TokenBuckets({ ratePerSecond: 10, burst: 3, now: time.now });
    expect([1, 2, 3].map(() => buckets.take('a').allowed)).toEqual([true, true, true]);
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterMs: 100 });
  });

  it('refills at the rate, never above the burst', () => {
    const time = clock();
    const buckets = new TokenBuckets({ ratePerSecond: 10, burst: 3, now: time.now });
    for (let i = 0; i < 3; i++) buckets.take('a');
    time.advance(250);
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterMs: 50 });
    time.advance(60_000);
    expect([1, 2, 3, 4].map(() => buckets.take('a').allowed)).toEqual([true, true, true, false]);
  });

  it('keeps one budget per key', () => {
    const buckets = new TokenBuckets({ ratePerSecond: 1, burst: 1, now: clock().now });
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a').allowed).toBe(false);
    expect(buckets.take('b').allowed).toBe(true);
  });

  it('holds at most maxBuckets keys', () => {
    const buckets = new TokenBuckets({ ratePerSecond: 1, burst: 1, maxBuckets: 100, now: clock().now });
    for (let i = 0; i < 1000; i++) buckets.take(`k${i}`);
    expect(buckets.size).toBe(100);
  });

  it('refuses a configuration that could never allow a request', () => {
    expect(() => new TokenBuckets({ ratePerSecond: 0, burst: 1 })).toThrow();
    expect(() => new TokenBuckets({ ratePerSecond: 1, burst: 0 })).toThrow();
  });
});
