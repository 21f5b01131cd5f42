import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKeepingNumbers, type ReceivedCloudEvent } from '../../../domain/events/chainHash.ts';
import { sequenceOf } from '../../../domain/events/cloudEvent.ts';
import { verifyEventStream } from '../../../domain/events/verifyEventStream.ts';
import { AWKWARD_TEXT } from '../../support/awkwardText.ts';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

let service: TestService;
let before: number;
let tenantId: string;
const appended: { id: number; hash: string; action: string }[] = [];
beforeAll(async () => {
  service = await startTestService();
  const [row] = await service.orm.em.fork().execute<{ id: string }[]>('select coalesce(max(id), 0) as id from audit_events');
  before = Number(row!.id);
  const created = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('feed'), name: 'Feed' });
  tenantId = created.body.tenant.id;
  const bodies = [
    { action: 'feed.plain', tenant_id: tenantId },
    { action: 'feed.awkward', tenant_id: tenantId, actor_name: AWKWARD_TEXT, target_name: AWKWARD_TEXT, product: 'analytics', metadata: { text: AWKWARD_TEXT, nested: { list: [1, 2.5, null, true], empty: {} }, big: 1234567890123456, neg: -0.001, zz: 1, a: 2, bb: 3 } },
    { action: 'feed.third', tenant_id: tenantId, metadata: {} },
  ];
  for (const body of bodies) appended.push((await service.request('POST', '/v1/audit', body, { 'user-agent': AWKWARD_TEXT.replace(/[^\x20-\x7e]/g, '') })).body);
});
afterAll(() => service?.close());

const get = async (query: string) => {
  const response = await fetch(`${service.baseUrl}/v1/events${query}`);
  return { status: response.status, cacheControl: response.headers.get('cache-control'), text: await response.text() };
};
const eventsOf = (text: string) => (parseKeepingNumbers(text) as { items: ReceivedCloudEvent[] }).items;

describe('GET /v1/events', () => {
  it("answers the tenant's events after the cursor oldest first as CloudEvents 1.0, with sequence, chainhash and chainprev", async () => {
    const page = JSON.parse((await get(`?after=${before}&tenant_id=${tenantId}`)).text);
    expect(page.items.map((e: { type: string }) => e.type)).toEqual(['tenant.created', 'feed.plain', 'feed.awkward', 'feed.third']);
    const awkward = page.items[2];
    expect(awkward).toMatchObject({
      specversion: '1.0',
      id: String(appended[1]!.id),
      source: 'urn:tenant-registry',
      type: 'feed.awkward',
      subject: tenantId,
      datacontenttype: 'application/json',
      data: { text: AWKWARD_TEXT, nested: { list: [1, 2.5, null, true], empty: {} }, big: 1234567890123456, neg: -0.001 },
      sequence: sequenceOf(appended[1]!.id),
      chainhash: appended[1]!.hash,
      chainprev: expect.stringMatching(/^[0-9a-f]{64}$/),
      actorname: AWKWARD_TEXT,
      targetname: AWKWARD_TEXT,
      product: 'analytics',
    });
    expect(awkward.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(awkward.sequence).toMatch(/^\d{20}$/);
    expect(page.next_cursor).toBe(sequenceOf(appended[2]!.id));
  });

  it('recomputes, from the received bytes alone, the hash the database gave each event', async () => {
    const items = eventsOf((await get(`?after=${before}&tenant_id=${tenantId}`)).text);
    expect(verifyEventStream(items, { filtered: true })).toMatchObject({ ok: true, checked: 4, mismatches: [] });
  });

  it('pages on with next_cursor, and a full page is answered again byte for byte, marked immutable', async () => {
    const first = await get(`?after=${before}&tenant_id=${tenantId}&limit=2`);
    expect(first.cacheControl).toMatch(/^private, .*immutable/);
    const again = await get(`?after=${before}&tenant_id=${tenantId}&limit=2`);
    expect(again.text).toBe(first.text);
    const second = await get(`?after=${JSON.parse(first.text).next_cursor}&tenant_id=${tenantId}&limit=2`);
    expect(JSON.parse(second.text).items.map((e: { type: string }) => e.type)).toEqual(['feed.awkward', 'feed.third']);
    // The newest page is not full: it grows as events come, so it is not marked final, and it says where to resume.
    const newest = await get(`?after=${JSON.parse(second.text).next_cursor}&tenant_id=${tenantId}&limit=2`);
    expect(JSON.parse(newest.text)).toEqual({ items: [], next_cursor: sequenceOf(appended[2]!.id) });
    expect(newest.cacheControl).toBe('no-cache');
  });

  it('keeps the types asked for, and takes a sequence with or without its zeros', async () => {
    const page = JSON.parse((await get(`?after=${sequenceOf(before)}&tenant_id=${tenantId}&types=feed.third,tenant.created`)).text);
    expect(page.items.map((e: { type: string }) => e.type)).toEqual(['tenant.created', 'feed.third']);
    expect(JSON.parse((await get(`?tenant_id=${randomUUID()}`)).text)).toEqual({ items: [], next_cursor: sequenceOf(0) });
  });

  it('refuses a cursor, types or a limit it cannot read (400)', async () => {
    for (const query of ['?after=abc', '?after=-1', '?limit=0', '?limit=501', '?types=', '?types=a,,b', '?tenant_id=nope']) {
      expect((await get(query)).status, query).toBe(400);
    }
  });
});
