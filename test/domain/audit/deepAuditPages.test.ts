import { describe, expect, it } from 'vitest';
import { DeepAuditPages, ifNoneMatchNames } from '../../../domain/audit/deepAuditPages.ts';

describe('DeepAuditPages', () => {
  it('a page is final once a head at or above cursor - 1 was seen; heads only grow; a page without a cursor never is', () => {
    const pages = new DeepAuditPages();
    expect(pages.isFinal({ cursor: 1 })).toBe(true);
    expect(pages.isFinal({ cursor: 2 })).toBe(false);
    pages.sawHead(100);
    pages.sawHead(50);
    expect(pages.isFinal({ cursor: 101 })).toBe(true);
    expect(pages.isFinal({ cursor: 102 })).toBe(false);
    expect(pages.isFinal({})).toBe(false);
  });

  it('the ETag is stable for one query and differs with each filter, the limit (the default spelled or not is one page), and the cursor', () => {
    const pages = new DeepAuditPages();
    const base = { cursor: 10, product: 'p' };
    const etag = pages.etagOf(base);
    expect(pages.etagOf({ ...base })).toBe(etag);
    expect(pages.etagOf({ ...base, limit: 50 })).toBe(etag);
    const others = [
      { ...base, cursor: 11 }, { ...base, limit: 49 }, { ...base, product: 'q' }, { ...base, tenant_id: '00000000-0000-4000-8000-000000000000' },
      { ...base, actor_id: 'a' }, { ...base, action: 'x.y' }, { ...base, since: '2026-01-01T00:00:00Z' }, { ...base, until: '2026-01-01T00:00:00Z' },
    ];
    expect(new Set(others.map((q) => pages.etagOf(q))).size).toBe(others.length);
    expect(others.map((q) => pages.etagOf(q))).not.toContain(etag);
  });
});

describe('ifNoneMatchNames', () => {
  it('matches the tag alone, in a list, weak, or *; not a missing header or another tag', () => {
    expect(ifNoneMatchNames('"a"', '"a"')).toBe(true);
    expect(ifNoneMatchNames('"b" ,  "a"', '"a"')).toBe(true);
    expect(ifNoneMatchNames('W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchNames(' * ', '"a"')).toBe(true);
    expect(ifNoneMatchNames(undefined, '"a"')).toBe(false);
    expect(ifNoneMatchNames('', '"a"')).toBe(false);
    expect(ifNoneMatchNames('"ab"', '"a"')).toBe(false);
  });
});
