import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { auditEventJson, toAuditEvent, type AuditRow } from '../../domain/audit/auditEventRow.ts';
import { AUDIT_COLUMNS_METADATA_AS_TEXT } from '../../store/auditEventInsert.ts';
import { AWKWARD_TEXT } from '../support/awkwardText.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { PostgresAuditRepository } from '../../store/postgresAuditRepository.ts';

let orm: Orm;
let audit: PostgresAuditRepository;
beforeAll(async () => {
  orm = await openOrm(inject('runtimeDatabaseUrl'), 1);
  audit = new PostgresAuditRepository(orm);
});
afterAll(() => orm.close());


describe('AUDIT_EVENT_JSON_SQL: audit pages built by PostgreSQL', () => {
  it('answers the bytes the API wrote from the rows (auditEventJson): absent fields left out, metadata as its jsonb text, cut microseconds; also as cursor pages', async () => {
    const tenantId = randomUUID();
    const everything = `a.everything.${tenantId.slice(0, 8)}`;
    const events: Record<string, unknown>[] = [
      { action: 'a.plain', created_at: '2026-01-02 03:04:05.999999+00' },
      {
        action: everything, project_id: randomUUID(), actor_id: AWKWARD_TEXT, actor_name: 'Ann "A"', actor_type: 'user', target_id: 't\\1', target_type: 'doc',
        target_name: AWKWARD_TEXT, product: 'analytics', source_ip: '10.0.0.1', user_agent: AWKWARD_TEXT, recorded_by: 'svc',
        metadata: JSON.stringify({ text: AWKWARD_TEXT, nested: { list: [1, 2.5, null, true], empty: {} }, big: 1234567890123456, neg: -0.001 }),
        created_at: '1999-12-31 23:59:59.000001+00',
      },
      { action: AWKWARD_TEXT.replace(/[^a-z]/g, '') || 'x', metadata: JSON.stringify({}), created_at: '2026-06-30 12:00:00+00' },
      { action: 'a.null-metadata-value', metadata: JSON.stringify({ gone: null }), actor_id: '', created_at: '2026-06-30 12:00:00.1+00' },
    ];
    for (const event of events) {
      const values = { ...event, tenant_id: tenantId };
      const columns = Object.keys(values);
      await orm.em.fork().execute(`insert into audit_events (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`, Object.values(values));
    }
    const rows = await orm.em.fork().execute<(AuditRow & { metadata: string | null })[]>(
      `select ${AUDIT_COLUMNS_METADATA_AS_TEXT} from audit_events where tenant_id = ? order by id desc`,
      [tenantId],
    );
    expect(rows).toHaveLength(events.length);
    const expected = `{"items":[${rows.map(auditEventJson).join(',')}]}`;
    expect((await audit.pageJson({ tenant_id: tenantId })).json).toBe(expected);
    expect(JSON.parse(expected).items).toEqual(rows.map(toAuditEvent));
    // Two pages by cursor, and the ids-first form of a product filter: the same events, the same bytes.
    const first = (await audit.pageJson({ tenant_id: tenantId, limit: 2 })).json;
    expect(first).toBe(`{"items":[${rows.slice(0, 2).map(auditEventJson).join(',')}],"next_cursor":${Number(rows[1]!.id)}}`);
    expect((await audit.pageJson({ tenant_id: tenantId, limit: 2, cursor: Number(rows[1]!.id) })).json).toBe(`{"items":[${rows.slice(2).map(auditEventJson).join(',')}]}`);
    expect((await audit.pageJson({ action: everything })).json).toBe(`{"items":[${rows.filter((row) => row.action === everything).map(auditEventJson).join(',')}]}`);
  });
});
