import { describe, expect, it } from 'vitest';
import { InFlightLimit } from '../../../domain/rateLimits/inFlightLimit.ts';

describe('InFlightLimit', () => {
  it('hands out up to its limit and refuses the next at once, without queueing it', () => {
    const limit = new InFlightLimit(2);
    const [first, second, third] = [limit.tryAcquire(), limit.tryAcquire(), limit.tryAcquire()];
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(third).toBeUndefined();
    expect(limit.held).toBe(2);
  });

  it('a released slot is free again, and releasing it twice frees it once', () => {
    const limit = new InFlightLimit(1);
    const release = limit.tryAcquire()!;
    release();
    release();
    expect(limit.held).toBe(0);
    expect(limit.tryAcquire()).toBeTypeOf('function');
    expect(limit.tryAcquire()).toBeUndefined();
  });
});
