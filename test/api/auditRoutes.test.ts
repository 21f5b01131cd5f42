import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const uniqueActor = () => `actor-${randomUUID()}`;

async function append(event: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await service.request('POST', '/v1/audit', event, headers);
  expect(res.status).toBe(201);
  return res.body as Record<string, any>;
}

/** Appends n events one after another (so ids and created_at ascend) for one actor. */
async function appendMany(n: number, extra: Record<string, unknown> = {}) {
  const actor = uniqueActor();
  const events = [];
  for (let i = 0; i < n; i++) events.push(await append({ action: 'test.seq', actor_id: actor, metadata: { i }, ...extra }));
  return { actor, events };
}

async function list(query: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return service.request('GET', `/v1/audit?${qs}`);
}

const ids = (items: Record<string, any>[]): number[] => items.map((e) => e.id);

describe('POST /v1/audit', () => {
  it('appends an event and answers 201 with id, created_at, source_ip, user_agent and the given fields', async () => {
    const userAgent = `audit-test/${randomUUID()}`;
    const input = {
      action: 'project.created',
      tenant_id: randomUUID(),
      project_id: randomUUID(),
      actor_id: uniqueActor(),
      actor_name: 'Jane Operator',
      actor_type: 'user',
      target_id: 'p-1',
      target_type: 'project',
      target_name: 'Project One',
      product: 'analytics',
      metadata: { nested: { ok: true }, list: [1, 2] },
    };
    const res = await service.request('POST', '/v1/audit', input, { 'user-agent': userAgent });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...input, user_agent: userAgent });
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(res.body.source_ip).toMatch(/127\.0\.0\.1|::1/);
    expect(Number.isNaN(Date.parse(res.body.created_at))).toBe(false);
  });

  it('source_ip is the peer address: a client-sent X-Forwarded-For is ignored unless TRUST_PROXY is set', async () => {
    const event = await append({ action: 'test.ip', actor_id: uniqueActor() }, { 'x-forwarded-for': '203.0.113.9' });
    expect(event.source_ip).toMatch(/127\.0\.0\.1|::1/);
  });

  it('behind a trusted proxy, source_ip is the client address from X-Forwarded-For', async () => {
    const proxied = await startTestService({ TRUST_PROXY: true });
    try {
      const res = await proxied.request('POST', '/v1/audit', { action: 'test.ip' }, { 'x-forwarded-for': '203.0.113.9' });
      expect(res.status).toBe(201);
      expect(res.body.source_ip).toBe('203.0.113.9');
      // A client may send its own X-Forwarded-For; the proxy appends the address it saw, so only the rightmost counts.
      const forged = await proxied.request('POST', '/v1/audit', { action: 'test.ip' }, { 'x-forwarded-for': '10.9.9.9, 203.0.113.9' });
      expect(forged.body.source_ip).toBe('203.0.113.9');
    } finally {
      await proxied.close();
    }
  });

  it('with TRUST_PROXY_HOPS=2, the client is the second address from the right', async () => {
    const proxied = await startTestService({ TRUST_PROXY: true, TRUST_PROXY_HOPS: 2 });
    try {
      const res = await proxied.request('POST', '/v1/audit', { action: 'test.ip' }, { 'x-forwarded-for': '10.9.9.9, 198.51.100.7, 10.0.0.2' });
      expect(res.body.source_ip).toBe('198.51.100.7');
    } finally {
      await proxied.close();
    }
  });

  it('the appended event is readable through GET /v1/audit', async () => {
    const event = await append({ action: 'test.readback', actor_id: uniqueActor() });
    const res = await list({ actor_id: event.actor_id });
    expect(res.body.items).toEqual([event]);
  });

  it('a missing action answers 400', async () => {
    const res = await service.request('POST', '/v1/audit', { actor_id: uniqueActor() });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('an empty action answers 400', async () => {
    const res = await service.request('POST', '/v1/audit', { action: '' });
    expect(res.status).toBe(400);
  });

  it('a tenant_id that is not a uuid answers 400', async () => {
    const res = await service.request('POST', '/v1/audit', { action: 'x.y', tenant_id: 'tenant-1' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('metadata that is not an object answers 400', async () => {
    const res = await service.request('POST', '/v1/audit', { action: 'x.y', metadata: ['a'] });
    expect(res.status).toBe(400);
  });

  it('source_ip and user_agent cannot be supplied by the caller', async () => {
    const res = await service.request('POST', '/v1/audit', { action: 'x.y', source_ip: '10.0.0.1' });
    expect(res.status).toBe(400);
  });
  it('appends made at the same moment each answer their own event, and every one is stored', async () => {
    const actor = uniqueActor();
    const events = await Promise.all(Array.from({ length: 40 }, (_, i) => append({ action: 'test.burst', actor_id: actor, metadata: { i } })));
    expect(events.map((e) => e.metadata.i)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(new Set(events.map((e) => e.id)).size).toBe(40);
    const stored = (await list({ actor_id: actor, limit: 100 })).body.items as Record<string, any>[];
    expect([...stored].sort((x, y) => x.id - y.id)).toEqual([...events].sort((x, y) => x.id - y.id));
  });
});

describe('GET /v1/audit', () => {
  it('lists newest first', async () => {
    const { actor, events } = await appendMany(4);
    const res = await list({ actor_id: actor });
    expect(res.status).toBe(200);
    expect(ids(res.body.items)).toEqual(ids(events).reverse());
    expect(res.body.next_cursor).toBeUndefined();
  });

  it('filters by tenant_id', async () => {
    const tenantId = randomUUID();
    const actor = uniqueActor();
    const mine = await append({ action: 'test.filter', tenant_id: tenantId, actor_id: actor });
    await append({ action: 'test.filter', tenant_id: randomUUID(), actor_id: actor });
    const res = await list({ tenant_id: tenantId });
    expect(res.body.items).toEqual([mine]);
  });

  it('filters by product', async () => {
    const actor = uniqueActor();
    const product = `prod-${randomUUID()}`;
    const mine = await append({ action: 'test.filter', product, actor_id: actor });
    await append({ action: 'test.filter', product: 'other', actor_id: actor });
    const res = await list({ product });
    expect(res.body.items).toEqual([mine]);
  });

  it('filters by actor_id', async () => {
    const actor = uniqueActor();
    const mine = await append({ action: 'test.filter', actor_id: actor });
    await append({ action: 'test.filter', actor_id: uniqueActor() });
    const res = await list({ actor_id: actor });
    expect(res.body.items).toEqual([mine]);
  });

  it('filters by action', async () => {
    const actor = uniqueActor();
    const action = `test.action-${randomUUID()}`;
    const mine = await append({ action, actor_id: actor });
    await append({ action: 'test.other', actor_id: actor });
    const res = await list({ action });
    expect(res.body.items).toEqual([mine]);
    expect(ids((await list({ action, actor_id: actor })).body.items)).toEqual([mine.id]);
  });

  it('since includes events at or after the given time, including one whose created_at equals it', async () => {
    const { actor, events } = await appendMany(3);
    const res = await list({ actor_id: actor, since: events[1]!.created_at });
    expect(ids(res.body.items)).toEqual([events[2]!.id, events[1]!.id]);
  });

  it('until includes events at or before the given time, including one whose created_at equals it', async () => {
    const { actor, events } = await appendMany(3);
    const res = await list({ actor_id: actor, until: events[1]!.created_at });
    expect(ids(res.body.items)).toEqual([events[1]!.id, events[0]!.id]);
  });

  it('since and until accept a timezone offset', async () => {
    const { actor, events } = await appendMany(1);
    const at = new Date(events[0]!.created_at);
    const plusTwo = new Date(at.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const res = await list({ actor_id: actor, since: plusTwo, until: plusTwo });
    expect(ids(res.body.items)).toEqual([events[0]!.id]);
  });

  it('lists an event exactly as it was appended: nested nulls, empty values and unicode in metadata, absent fields absent', async () => {
    const actor = uniqueActor();
    const appended = await append({
      action: 'test.shape',
      actor_id: actor,
      target_name: 'Zoë "quoted" \\ name\n\ttabbed \u0001 control',
      metadata: { nothing: null, nested: { deeper: [null, 0, false, ''] }, empty: {}, text: 'ünïcødé ✓' },
    });
    const listed = (await list({ actor_id: actor })).body.items;
    expect(listed).toEqual([appended]);
    expect(listed[0]).not.toHaveProperty('tenant_id');
    expect(listed[0].metadata.nothing).toBeNull();
  });

  it('a time range answers exactly its events when created_at runs a few seconds backwards as ids grow', async () => {
    // Far in the past, so the log's other events cannot fall in the range. created_at is set the way a database
    // clock stepped back by seconds would leave it: not in id order, within the documented tolerance.
    const base = Date.UTC(2001, 1, 3, 4, Math.floor(Math.random() * 50));
    const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();
    const actor = uniqueActor();
    const inserted: { id: number; second: number }[] = [];
    for (const second of [-3600, 0, 10, 5, 20, 15, 30, 3600]) {
      const rows = await service.orm.em
        .fork()
        .execute<{ id: string }[]>(`insert into audit_events (action, actor_id, created_at) values ('test.clock', ?, ?) returning id`, [actor, at(second)]);
      inserted.push({ id: Number(rows[0]!.id), second });
    }
    const expected = inserted.filter((e) => e.second >= 5 && e.second <= 15).map((e) => e.id).sort((x, y) => y - x);
    const page = await list({ since: at(5), until: at(15) });
    expect(page.status).toBe(200);
    expect(ids(page.body.items)).toEqual(expected);
    // The same range page by page, and with another filter beside it.
    const first = await list({ since: at(5), until: at(15), limit: 2 });
    expect(ids(first.body.items)).toEqual(expected.slice(0, 2));
    const second = await list({ since: at(5), until: at(15), limit: 2, cursor: first.body.next_cursor });
    expect(ids(second.body.items)).toEqual(expected.slice(2));
    expect(second.body.next_cursor).toBeUndefined();
    expect(ids((await list({ actor_id: actor, since: at(0), until: at(30) })).body.items)).toEqual(
      inserted.filter((e) => e.second >= 0 && e.second <= 30).map((e) => e.id).sort((x, y) => y - x),
    );
  });

  it('since after the newest event yields an empty page', async () => {
    const { actor, events } = await appendMany(1);
    const later = new Date(Date.parse(events[0]!.created_at) + 60_000).toISOString();
    const res = await list({ actor_id: actor, since: later });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
  });

  it.each(['yesterday', '2026-01-01', '2026-01-01T00:00:00', '2026-02-30T00:00:00Z'])(
    'a since or until that is not an RFC 3339 date-time (%s) answers 400',
    async (value) => {
      expect((await list({ since: value })).status).toBe(400);
      expect((await list({ until: value })).status).toBe(400);
    },
  );

  it('a tenant_id filter that is not a uuid answers 400', async () => {
    const res = await list({ tenant_id: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('the default page size is 50', async () => {
    const { actor } = await appendMany(51);
    const res = await list({ actor_id: actor });
    expect(res.body.items).toHaveLength(50);
    expect(typeof res.body.next_cursor).toBe('number');
  });

  it('limit 1 and limit 500 are accepted', async () => {
    const { actor, events } = await appendMany(2);
    const one = await list({ actor_id: actor, limit: 1 });
    expect(one.status).toBe(200);
    expect(ids(one.body.items)).toEqual([events[1]!.id]);
    const max = await list({ actor_id: actor, limit: 500 });
    expect(max.status).toBe(200);
    expect(max.body.items).toHaveLength(2);
  });

  it.each(['0', '501', 'abc', '-1', '1.5', '10abc', ''])('limit %j answers 400', async (limit) => {
    const res = await service.request('GET', `/v1/audit?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });

  it('cursor pagination walks every page once with no duplicates or gaps and omits next_cursor on the last page', async () => {
    const { actor, events } = await appendMany(7);
    const seen: number[] = [];
    const pageSizes: number[] = [];
    let cursor: number | undefined;
    let last: any;
    do {
      const res = await list({ actor_id: actor, limit: 3, ...(cursor === undefined ? {} : { cursor }) });
      expect(res.status).toBe(200);
      seen.push(...ids(res.body.items));
      pageSizes.push(res.body.items.length);
      cursor = res.body.next_cursor;
      last = res.body;
    } while (cursor !== undefined && pageSizes.length < 10);
    expect(pageSizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(ids(events).reverse());
    expect('next_cursor' in last).toBe(false);
  });

  it('when the events fill the last page exactly, that page has no next_cursor', async () => {
    const { actor, events } = await appendMany(4);
    const first = await list({ actor_id: actor, limit: 2 });
    expect(first.body.next_cursor).toBe(events[2]!.id);
    const second = await list({ actor_id: actor, limit: 2, cursor: first.body.next_cursor });
    expect(ids(second.body.items)).toEqual([events[1]!.id, events[0]!.id]);
    expect('next_cursor' in second.body).toBe(false);
  });

  it.each(['abc', '-5', '0', '1e3', '99999999999999999999'])('a malformed cursor %j answers 400', async (cursor) => {
    const res = await service.request('GET', `/v1/audit?cursor=${cursor}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_input');
  });
});

describe('audit_events in the database', () => {
  const execute = (sql: string, params: unknown[] = []) => service.orm.em.fork().execute(sql, params);

  it('an UPDATE of an audit event fails', async () => {
    const event = await append({ action: 'test.immutable', actor_id: uniqueActor() });
    await expect(execute(`update audit_events set action = 'tampered' where id = ?`, [event.id])).rejects.toThrow(/append-only/);
    expect((await list({ actor_id: event.actor_id })).body.items).toEqual([event]);
  });

  it('a DELETE of an audit event fails', async () => {
    const event = await append({ action: 'test.immutable', actor_id: uniqueActor() });
    await expect(execute('delete from audit_events where id = ?', [event.id])).rejects.toThrow(/append-only/);
    expect((await list({ actor_id: event.actor_id })).body.items).toEqual([event]);
  });

  it('a TRUNCATE of audit_events fails', async () => {
    const event = await append({ action: 'test.immutable', actor_id: uniqueActor() });
    await expect(execute('truncate audit_events')).rejects.toThrow(/append-only/);
    expect((await list({ actor_id: event.actor_id })).body.items).toEqual([event]);
  });
});
