import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm } from '../../../store/orm.ts';
import { answerOfColumns, cloudEventOfColumns, COLUMNS_OF_EVENTS_SQL, type StoredEvent } from '../../support/auditEventRendering.ts';
import { AWKWARD_TEXT } from '../../support/awkwardText.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../support/scratchDatabase.ts';

/** A database of this file's own, migrated up to the migration before, given events, then migrated on. */
let scratch: ScratchDatabase;
beforeAll(async () => {
  scratch = await createScratchDatabase('audit_rendered_once_migration');
});
afterAll(() => scratch?.drop());

describe('Migration20261209000047AuditRenderedOnce', () => {
  it("renders the events already in the log once, each chained from its predecessor's hash or from the one a retention kept, and appends render on their own after it", async () => {
    const orm = await openOrm(scratch.ownerUrl, 1);
    try {
      await orm.migrator.up({ to: 'Migration20261208000046WebhookEndpoints' });
      const db = orm.em.fork();
      const tenantId = randomUUID();
      const event = (values: Record<string, unknown>) => {
        const columns = Object.keys(values);
        return db.execute(`insert into audit_events (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`, Object.values(values));
      };
      await event({ action: 'a.first', created_at: '2026-01-02 03:04:05.999999+00' });
      await event({ action: 'a.awkward', tenant_id: tenantId, actor_id: AWKWARD_TEXT, user_agent: AWKWARD_TEXT, product: 'analytics', metadata: JSON.stringify({ text: AWKWARD_TEXT, n: [1, 2.5] }) });
      await event({ action: 'a.after-a-removal', tenant_id: tenantId, recorded_by: 'svc', metadata: JSON.stringify({}) });
      // As a retention's removal leaves it: the third event's predecessor is gone, its hash kept in audit_chain_links.
      const [third] = await db.execute<{ id: string }[]>(`select id from audit_events where action = 'a.after-a-removal'`);
      const keptHash = 'c'.repeat(64);
      await db.execute('insert into audit_chain_links (id, previous_hash) values (?, ?)', [third!.id, keptHash]);

      await orm.migrator.up();
      const stored = await db.execute<StoredEvent[]>(`${COLUMNS_OF_EVENTS_SQL} order by e.id`);
      expect(stored.map((row) => row.action)).toEqual(['a.first', 'a.awkward', 'a.after-a-removal']);
      expect(stored.map((row) => row.previous_hash)).toEqual(['0'.repeat(64), stored[0]!.hash, keptHash]);
      for (const row of stored) {
        expect(row.answer).toBe(answerOfColumns(row));
        expect(row.cloud_event).toBe(cloudEventOfColumns(row, row.previous_hash));
      }

      await event({ action: 'a.after-the-migration', tenant_id: tenantId });
      const [appended] = await db.execute<StoredEvent[]>(`${COLUMNS_OF_EVENTS_SQL} where e.action = 'a.after-the-migration'`);
      expect(appended!.answer).toBe(answerOfColumns(appended!));
      expect(appended!.cloud_event).toBe(cloudEventOfColumns(appended!, stored[2]!.hash));
      await expect(db.execute(`update audit_events set answer = '{}' where id = ?`, [appended!.id])).rejects.toThrow(/append-only/);
    } finally {
      await orm.close();
    }
  });
});
