import { describe, expect, it } from 'vitest';
import { ScopedReads } from '../../../domain/reads/scopedReads.ts';

describe('ScopedReads', () => {
  it('a read set into a scope whose reads have all expired starts the scope afresh: the expired reads are not kept', () => {
    const reads = new ScopedReads(1_000_000, 1_000_000);
    reads.set('directory-1', 'first page', 'page one', 100, 0);
    reads.set('directory-1', 'second page', 'page two', 150, 50);
    expect(reads.get('directory-1', 'first page', 120)).toBeUndefined();
    expect(reads.size).toBe(2);
    reads.set('directory-1', 'third page', 'page three', 400, 200);
    expect(reads.size).toBe(1);
    expect(reads.get('directory-1', 'third page', 200)).toBe('page three');
  });

  it('a scope still fresh keeps its other reads when one is set', () => {
    const reads = new ScopedReads(1_000_000, 1_000_000);
    reads.set('directory-1', 'first page', 'page one', 100, 0);
    reads.set('directory-1', 'second page', 'page two', 150, 50);
    expect(reads.get('directory-1', 'first page', 90)).toBe('page one');
    expect(reads.size).toBe(2);
  });
});
