import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exportAuditEvents } from '../../domain/audit/exportAuditEvents.ts';
import { readEventPage } from '../../domain/events/readEventPage.ts';
import { InFlightLimit } from '../../domain/rateLimits/inFlightLimit.ts';
import { AuditEvent, AuditPage } from '../../domain/schemas/audit.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { PostgresAuditRepository } from '../../store/postgresAuditRepository.ts';
import { answerOfColumns, cloudEventOfColumns, COLUMNS_OF_EVENTS_SQL, type StoredEvent } from '../support/auditEventRendering.ts';
import { AWKWARD_TEXT } from '../support/awkwardText.ts';

let orm: Orm;
let audit: PostgresAuditRepository;
beforeAll(async () => {
  orm = await openOrm(inject('runtimeDatabaseUrl'), 1);
  audit = new PostgresAuditRepository(orm);
});
afterAll(() => orm.close());

const limits = { inFlight: new InFlightLimit(4), statementTimeoutMs: 10_000 };

async function insertAs(values: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(values);
  await orm.em.fork().execute(`insert into audit_events (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`, Object.values(values));
}

const storedOf = (tenantId: string) => orm.em.fork().execute<StoredEvent[]>(`${COLUMNS_OF_EVENTS_SQL} where e.tenant_id = ? order by e.id desc`, [tenantId]);

async function text(chunks: AsyncIterableIterator<string>): Promise<string> {
  let all = '';
  for await (const chunk of chunks) all += chunk;
  return all;
}

describe('an audit event is rendered once, when it is appended', () => {
  it('every list answers the stored renderings, and they are byte for byte what the columns say: pages by each filter and cursor, export, stream step, feed', async () => {
    const tenantId = randomUUID();
    const everything = `a.everything.${tenantId.slice(0, 8)}`;
    const product = `p-${tenantId.slice(0, 8)}`;
    const actor = `${AWKWARD_TEXT}-${tenantId}`;
    await insertAs({ tenant_id: tenantId, action: 'a.plain', created_at: '2026-01-02 03:04:05.999999+00' });
    await insertAs({
      tenant_id: tenantId, action: everything, project_id: randomUUID(), actor_id: actor, actor_name: 'Ann "A"', actor_type: 'user', target_id: 't\\1', target_type: 'doc',
      target_name: AWKWARD_TEXT, product, source_ip: '10.0.0.1', user_agent: AWKWARD_TEXT, recorded_by: 'svc',
      metadata: JSON.stringify({ text: AWKWARD_TEXT, nested: { list: [1, 2.5, null, true], empty: {} }, big: 1234567890123456, neg: -0.001 }),
      created_at: '1999-12-31 23:59:59.000001+00',
    });
    await insertAs({ tenant_id: tenantId, action: 'a.empty-metadata', metadata: JSON.stringify({}), created_at: '2026-06-30 12:00:00+00' });
    await insertAs({ tenant_id: tenantId, action: 'a.null-metadata-value', metadata: JSON.stringify({ gone: null }), actor_id: '', product, created_at: '2026-06-30 12:00:00.1+00' });

    const stored = await storedOf(tenantId);
    expect(stored).toHaveLength(4);
    for (const row of stored) {
      expect(row.answer).toBe(answerOfColumns(row));
      expect(row.cloud_event).toBe(cloudEventOfColumns(row, row.previous_hash));
      expect(AuditEvent.parse(JSON.parse(row.answer))).toEqual(JSON.parse(row.answer));
    }
    const answers = (rows: StoredEvent[]) => rows.map((row) => row.answer).join(',');
    const newestFirst = `{"items":[${answers(stored)}]}`;
    expect((await audit.pageJson({ tenant_id: tenantId })).json).toBe(newestFirst);
    expect(AuditPage.parse(JSON.parse(newestFirst)).items.map((event) => event.id)).toEqual(stored.map((row) => Number(row.id)));
    expect((await audit.pageJson({ tenant_id: tenantId, limit: 2 })).json).toBe(`{"items":[${answers(stored.slice(0, 2))}],"next_cursor":${Number(stored[1]!.id)}}`);
    expect((await audit.pageJson({ tenant_id: tenantId, limit: 2, cursor: Number(stored[1]!.id) })).json).toBe(`{"items":[${answers(stored.slice(2))}]}`);
    const only = (keep: (row: StoredEvent) => boolean) => `{"items":[${answers(stored.filter(keep))}]}`;
    expect((await audit.pageJson({ action: everything })).json).toBe(only((row) => row.action === everything));
    expect((await audit.pageJson({ product })).json).toBe(only((row) => row.product === product));
    expect((await audit.pageJson({ actor_id: actor })).json).toBe(only((row) => row.actor_id === actor));
    // A time range, on events appended now (ids and created_at rise together, as the range's id bounds expect).
    const recent = randomUUID();
    const since = new Date(Date.now() - 1000).toISOString();
    for (const action of ['a.recent.1', 'a.recent.2']) await insertAs({ tenant_id: recent, action });
    const recentStored = await storedOf(recent);
    expect((await audit.pageJson({ tenant_id: recent, since, until: new Date(Date.now() + 1000).toISOString() })).json).toBe(`{"items":[${answers(recentStored)}]}`);

    const oldestFirst = [...stored].reverse();
    expect((await audit.answersAfter({ tenant_id: tenantId }, 0, 10)).map((row) => row.answer)).toEqual(oldestFirst.map((row) => row.answer));
    expect(await text(await exportAuditEvents(audit, limits, { tenant_id: tenantId }))).toBe(oldestFirst.map((row) => `${row.answer}\n`).join(''));
    expect(await text(await exportAuditEvents(audit, limits, { tenant_id: tenantId, format: 'cloudevents' }))).toBe(oldestFirst.map((row) => `${row.cloud_event}\n`).join(''));
    const feed = await readEventPage(audit, { tenant_id: tenantId }, {});
    expect(feed.json).toBe(`{"items":[${oldestFirst.map((row) => row.cloud_event).join(',')}],"next_cursor":"${String(stored[0]!.id).padStart(20, '0')}"}`);
  });

  it('an insert cannot supply its own rendering: the chain trigger writes what the columns say over it', async () => {
    const tenantId = randomUUID();
    const forged = `{"id":1,"action":"tenant.deleted","created_at":"2026-01-01T00:00:00.000Z","hash":"${'0'.repeat(64)}"}`;
    await insertAs({ tenant_id: tenantId, action: 'a.honest', actor_id: 'ada', answer: forged, cloud_event: forged });
    const [row] = await storedOf(tenantId);
    expect(row!.answer).toBe(answerOfColumns(row!));
    expect(row!.cloud_event).toBe(cloudEventOfColumns(row!, row!.previous_hash));
    expect(JSON.parse(row!.answer)).toMatchObject({ action: 'a.honest', actor_id: 'ada', tenant_id: tenantId });
  });

  it('an append answers its stored answer, the same event every list shows', async () => {
    const tenantId = randomUUID();
    const appended = await audit.append({ action: 'a.appended', tenant_id: tenantId, metadata: { n: 1 } }, { sourceIp: '10.9.9.9' });
    const [row] = await storedOf(tenantId);
    expect(appended).toEqual(JSON.parse(row!.answer));
    expect(appended).toMatchObject({ id: Number(row!.id), source_ip: '10.9.9.9', metadata: { n: 1 } });
  });
});
