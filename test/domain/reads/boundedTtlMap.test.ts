import { describe, expect, it } from 'vitest';
import { BoundedTtlMap } from '../../../domain/reads/boundedTtlMap.ts';

describe('BoundedTtlMap', () => {
  it('a sweep forgets the oldest entries that are expired and past the stale window, and stops at the first that stays', () => {
    const map = new BoundedTtlMap<string, number>(10);
    map.set('expired long ago', 1, 100, 0);
    map.set('expired lately', 2, 190, 160);
    map.set('fresh', 3, 500, 200);
    map.set('expired, after a fresh one', 4, 100, 0);
    map.sweep(200, 50);
    expect([...map.values()]).toEqual([2, 3, 4]);
    map.sweep(200, 0);
    expect([...map.values()]).toEqual([3, 4]);
  });
});
