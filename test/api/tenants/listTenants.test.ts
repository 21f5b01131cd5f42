import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

let service: TestService;
/** A stem no other test uses, so q= finds exactly this file's tenants. */
const stem = `lst${process.pid.toString(36)}${Date.now().toString(36)}`.slice(0, 14);
const created: Array<{ id: string; slug: string; kind: string; status: string; plan: string }> = [];

beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 7; i++) {
    const kind = i % 3 === 0 ? 'demo' : 'customer';
    const res = await service.request('POST', '/v1/tenants', { slug: `${stem}-${i}`, name: `Listed ${stem} ${i}`, kind, plan: i % 2 ? 'pro' : 'starter' });
    expect(res.status).toBe(201);
    created.push(res.body.tenant);
  }
  await service.request('POST', `/v1/tenants/${created[1]!.id}/activate`);
});
afterAll(() => service.close());

const list = async (query: string) => (await service.request('GET', `/v1/tenants?${query}`)).body as { items: Array<{ id: string; slug: string }>; next_cursor?: string };
const newestFirst = () => [...created].reverse().map((t) => t.id);

describe('GET /v1/tenants', () => {
  it('lists newest first and pages with next_cursor until the last page, which has none', async () => {
    const seen: string[] = [];
    let query = `q=${stem}&limit=3`;
    for (let page = 0; page < 5; page++) {
      const body = await list(query);
      seen.push(...body.items.map((t) => t.id));
      if (!body.next_cursor) break;
      expect(body.items).toHaveLength(3);
      query = `q=${stem}&limit=3&cursor=${body.next_cursor}`;
    }
    expect(seen).toEqual(newestFirst());
  });

  it('filters by status, kind and plan', async () => {
    expect((await list(`q=${stem}&status=active`)).items.map((t) => t.id)).toEqual([created[1]!.id]);
    expect((await list(`q=${stem}&kind=demo`)).items.map((t) => t.id)).toEqual(newestFirst().filter((id) => created.find((t) => t.id === id)!.kind === 'demo'));
    expect((await list(`q=${stem}&plan=pro`)).items.every((t) => created.find((c) => c.id === t.id)!.plan === 'pro')).toBe(true);
  });

  it('q is a case-insensitive prefix of the slug or the name, with LIKE wildcards taken literally', async () => {
    expect((await list(`q=${stem}-3`)).items.map((t) => t.slug)).toEqual([`${stem}-3`]);
    expect((await list(`q=${encodeURIComponent(`LISTED ${stem.toUpperCase()} 4`)}`)).items.map((t) => t.slug)).toEqual([`${stem}-4`]);
    expect((await list(`q=${stem.slice(0, 3)}%25${stem.slice(4)}`)).items).toEqual([]);
    expect((await list(`q=_${stem.slice(1)}`)).items).toEqual([]);
  });

  it('defaults to 50 per page and refuses a bad limit or cursor with 400', async () => {
    for (let i = 0; i < 2; i++) await service.request('POST', '/v1/tenants', { slug: uniqueSlug('bulk'), name: 'Bulk' });
    expect((await list('')).items.length).toBeLessThanOrEqual(50);
    for (const query of ['limit=0', 'limit=501', 'limit=abc', 'cursor=not-a-cursor', 'status=gone']) {
      expect((await service.request('GET', `/v1/tenants?${query}`)).status, query).toBe(400);
    }
  });

  it('pages through tenants created within one millisecond without skipping any', async () => {
    const micro = `${stem}-us`;
    for (const [n, at] of [[1, '2020-01-01T00:00:00.000100Z'], [2, '2020-01-01T00:00:00.000200Z'], [3, '2020-01-01T00:00:00.000300Z']] as const) {
      await service.orm.em.fork().execute(
        `insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at) values (gen_random_uuid(), ?, 'Micro', 'demo', 'demo', 'starter', ?, ?)`,
        [`${micro}-${n}`, at, at],
      );
    }
    const slugs: string[] = [];
    let cursor = '';
    for (let page = 0; page < 4; page++) {
      const body = await list(`q=${micro}&limit=1${cursor}`);
      slugs.push(...body.items.map((t) => t.slug));
      if (!body.next_cursor) break;
      cursor = `&cursor=${body.next_cursor}`;
    }
    expect(slugs).toEqual([`${micro}-3`, `${micro}-2`, `${micro}-1`]);
  });
});
