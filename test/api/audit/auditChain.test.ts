import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const sql = (text: string, params: unknown[] = []) => service.orm.em.fork().execute<Record<string, any>[]>(text, params);
const integrity = async (query = '') => (await service.request('GET', `/v1/audit/integrity${query}`)).body;

describe('the audit hash chain', () => {
  it('every event carries a hash that follows from its predecessor, and an untouched log checks ok', async () => {
    const first = await service.request('POST', '/v1/audit', { action: 'chain.first' });
    const second = await service.request('POST', '/v1/audit', { action: 'chain.second' });
    expect(first.body.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(second.body.hash).not.toBe(first.body.hash);
    const report = await integrity();
    expect(report.ok).toBe(true);
    expect(report.first_bad_id).toBeUndefined();
    expect(report.checked).toBeGreaterThanOrEqual(2);
    // The report ends at the newest event it saw (other test files may have appended since), with that event's hash.
    const [newest] = await sql('select hash from audit_events where id = ?', [report.last_id]);
    expect(report.last_id).toBeGreaterThanOrEqual(second.body.id);
    expect(report.last_hash).toBe(newest!.hash);
  });

  it('holds with concurrent appends, batched appends and tenant creations from several connections', async () => {
    const before = (await sql('select coalesce(max(id), 0) as id from audit_events'))[0]!.id;
    const other = await startTestService();
    try {
      await Promise.all([
        ...Array.from({ length: 40 }, (_, i) => (i % 2 ? service : other).request('POST', '/v1/audit', { action: `chain.concurrent.${i}` })),
        ...Array.from({ length: 10 }, (_, i) => (i % 2 ? other : service).request('POST', '/v1/tenants', { slug: uniqueSlug('chain'), name: `Chain ${i}` })),
        ...Array.from({ length: 10 }, (_, i) =>
          service.request('POST', '/v1/audit', { action: `chain.keyed.${i}` }, { 'idempotency-key': `chain-${process.pid}-${Date.now()}-${i}` }),
        ),
      ]);
    } finally {
      await other.close();
    }
    const report = await integrity(`?from_id=${Number(before) + 1}`);
    expect(report.ok).toBe(true);
    // Other test files append meanwhile too: at least these 60, every one chained.
    expect(report.checked).toBeGreaterThanOrEqual(60);
  });

  it('names the altered event as first_bad_id after a superuser changed it in the database', async () => {
    const events = [];
    for (const action of ['tamper.a', 'tamper.b', 'tamper.c']) events.push((await service.request('POST', '/v1/audit', { action, metadata: { n: 1 } })).body);
    const target = events[1]!;
    await sql('alter table audit_events disable trigger audit_events_append_only');
    try {
      await sql(`update audit_events set metadata = '{"n": 2}' where id = ?`, [target.id]);
    } finally {
      await sql('alter table audit_events enable trigger audit_events_append_only');
    }
    const report = await integrity(`?from_id=${events[0]!.id}&to_id=${events[2]!.id}`);
    expect(report).toMatchObject({ ok: false, first_bad_id: target.id });
    // A range before the altered event is still intact.
    expect((await integrity(`?from_id=${events[0]!.id}&to_id=${events[0]!.id}`)).ok).toBe(true);
    // Put it back, so the log of this run is whole again for the other tests.
    await sql('alter table audit_events disable trigger audit_events_append_only');
    try {
      await sql(`update audit_events set metadata = '{"n": 1}' where id = ?`, [target.id]);
    } finally {
      await sql('alter table audit_events enable trigger audit_events_append_only');
    }
    expect((await integrity(`?from_id=${events[0]!.id}&to_id=${events[2]!.id}`)).ok).toBe(true);
  });

  it('the database refuses UPDATE, DELETE and TRUNCATE of audit events', async () => {
    const event = (await service.request('POST', '/v1/audit', { action: 'immutable.one' })).body;
    await expect(sql(`update audit_events set action = 'changed' where id = ?`, [event.id])).rejects.toThrow(/append-only/);
    await expect(sql(`delete from audit_events where id = ?`, [event.id])).rejects.toThrow(/append-only/);
    await expect(sql(`truncate audit_events`)).rejects.toThrow(/append-only/);
    expect((await sql('select action from audit_events where id = ?', [event.id]))[0]!.action).toBe('immutable.one');
  });

  it('ignores an id a writer supplies: ids always follow the chain', async () => {
    const [row] = await sql(`insert into audit_events (id, action) values (1, 'chain.forged_id') returning id, hash`);
    expect(Number(row!.id)).toBeGreaterThan(1);
    expect((await integrity(`?from_id=${row!.id}&to_id=${row!.id}`)).ok).toBe(true);
  });

  it('an empty range (to_id below from_id) checks nothing and is ok', async () => {
    const res = await service.request('GET', '/v1/audit/integrity?from_id=5&to_id=4');
    expect(res).toMatchObject({ status: 200, body: { ok: true, checked: 0 } });
  });
});
