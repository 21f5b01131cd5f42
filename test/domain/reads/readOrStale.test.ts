import { describe, expect, it } from 'vitest';
import { readOrStale } from '../../../domain/reads/readOrStale.ts';

describe('readOrStale', () => {
  it("answers the store's read, not found included, without asking for a copy", async () => {
    let asked = 0;
    const copy = () => (asked += 1, 'copy');
    expect(await readOrStale(async () => 'read', copy)).toEqual({ value: 'read', stale: false });
    expect(await readOrStale(async () => undefined, copy)).toEqual({ value: undefined, stale: false });
    expect(asked).toBe(0);
  });

  it("answers the cache's copy, marked stale, when the read fails; without a copy the read's own failure stands", async () => {
    const down = new Error('the store cannot be read');
    expect(await readOrStale(() => Promise.reject(down), () => 'copy')).toEqual({ value: 'copy', stale: true });
    await expect(readOrStale(() => Promise.reject(down), () => undefined)).rejects.toBe(down);
  });
});
