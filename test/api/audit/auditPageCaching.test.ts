import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

/** Events of a product of their own, so this file's pages hold its events alone. */
async function appendEvents(product: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const res = await service.request('POST', '/v1/audit', { action: 'report.exported', product, actor_id: `actor-${i}`, actor_type: 'user' });
    expect(res.status).toBe(201);
    ids.push(res.body.id as number);
  }
  return ids;
}

const page = (query: string, headers: Record<string, string> = {}) => service.request('GET', `/v1/audit?${query}`, undefined, headers);

/** The second page (two of four new events of a product of its own): final at once; its query and its ETag. */
async function secondPageOfFour(): Promise<{ query: string; etag: string }> {
  const product = `cache-${randomUUID().slice(0, 8)}`;
  await appendEvents(product, 4);
  const cursor = (await page(`product=${product}&limit=2`)).body.next_cursor as number;
  const query = `product=${product}&limit=2&cursor=${cursor}`;
  return { query, etag: (await page(query)).headers.get('etag')! };
}

describe('GET /v1/audit: deep pages are final, cacheable and revalidated by ETag', () => {
  it('the head page carries no ETag and no Cache-Control: it changes with every append', async () => {
    const product = `cache-${randomUUID().slice(0, 8)}`;
    await appendEvents(product, 3);
    const head = await page(`product=${product}&limit=2`);
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBeNull();
    expect(head.headers.get('cache-control')).toBeNull();
  });

  it('a page below a cursor carries a strong ETag and public, immutable caching varying on Authorization; the same bytes after later appends', async () => {
    const product = `cache-${randomUUID().slice(0, 8)}`;
    const ids = await appendEvents(product, 5);
    const head = await page(`product=${product}&limit=2`);
    const cursor = head.body.next_cursor as number;
    const deep = await page(`product=${product}&limit=2&cursor=${cursor}`);
    expect(deep.status).toBe(200);
    expect(deep.body.items.map((e: { id: number }) => e.id)).toEqual([ids[2], ids[1]]);
    const etag = deep.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(deep.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    expect(deep.headers.get('vary')).toBe('Authorization');
    await appendEvents(product, 2);
    const again = await page(`product=${product}&limit=2&cursor=${cursor}`);
    expect(again.body).toEqual(deep.body);
    expect(again.headers.get('etag')).toBe(etag);
    // Another limit or filter is another page, with another ETag.
    expect((await page(`product=${product}&limit=3&cursor=${cursor}`)).headers.get('etag')).not.toBe(etag);
    expect((await page(`product=${product}&actor_id=actor-1&limit=2&cursor=${cursor}`)).headers.get('etag')).not.toBe(etag);
  });

  it('If-None-Match naming the ETag (alone, in a list, weak, or *) is 304 with no body; another ETag gets the page', async () => {
    const { query, etag } = await secondPageOfFour();
    for (const named of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const revalidated = await page(query, { 'if-none-match': named });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body).toBeUndefined();
      expect(revalidated.headers.get('etag')).toBe(etag);
      expect(revalidated.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    }
    const other = await page(query, { 'if-none-match': '"not-this-page"' });
    expect(other.status).toBe(200);
    expect(other.body.items).toHaveLength(2);
  });

  it('a revalidation of a page this replica knows is final does not read the log', async () => {
    const { query, etag } = await secondPageOfFour();
    const reads = vi.spyOn(service.deps.stores.audit, 'pageJson');
    try {
      expect((await page(query, { 'if-none-match': etag })).status).toBe(304);
      expect(reads).not.toHaveBeenCalled();
      expect((await page(query)).status).toBe(200);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('a cursor above the head is not final (events may still come below it): no ETag, and If-None-Match never answers 304 for it', async () => {
    const product = `cache-${randomUUID().slice(0, 8)}`;
    const [first] = await appendEvents(product, 1);
    const beyond = first! + 1_000_000;
    const early = await page(`product=${product}&cursor=${beyond}`);
    expect(early.status).toBe(200);
    expect(early.headers.get('etag')).toBeNull();
    expect(early.headers.get('cache-control')).toBeNull();
    expect((await page(`product=${product}&cursor=${beyond}`, { 'if-none-match': '*' })).status).toBe(200);
  });
});
