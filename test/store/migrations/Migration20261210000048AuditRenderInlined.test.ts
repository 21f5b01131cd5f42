import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOfColumns, cloudEventOfColumns, COLUMNS_OF_EVENTS_SQL, type StoredEvent } from '../../support/auditEventRendering.ts';
import { migratedScratchDatabase } from '../../support/migratedScratchDatabase.ts';
import type { ScratchDatabase } from '../../support/scratchDatabase.ts';

/** A database of this file's own, migrated to the end: the file plants operators in a schema of its own. */
let scratch: ScratchDatabase;
let owner: pg.Client;
beforeAll(async () => {
  ({ scratch, owner } = await migratedScratchDatabase('audit_render_inlined_migration'));
  await owner.query(`insert into audit_events (action, tenant_id, actor_id, metadata) values ('a.rendered', $1, 'someone', '{"n":1}')`, [randomUUID()]);
});
afterAll(async () => {
  await owner?.end();
  await scratch?.drop();
});

describe('Migration20261210000048AuditRenderInlined', () => {
  it('plans both renderings as their expressions, not as calls: PostgreSQL inlines them into the chain trigger', async () => {
    const { rows } = await owner.query<{ 'QUERY PLAN': string }>(
      'explain (verbose, costs off) select public.audit_event_answer(e), public.audit_event_cloud_event(e, e.hash) from audit_events e',
    );
    const output = rows.map((row) => row['QUERY PLAN']).find((line) => line.trim().startsWith('Output:'));
    expect(output).toContain('to_char');
    expect(output).not.toMatch(/audit_event_answer|audit_event_cloud_event/);
  });

  it("renders the same whatever the caller's search_path: an operator planted ahead of pg_catalog redirects nothing", async () => {
    await owner.query('create schema planted');
    await owner.query(`create function planted.forged(text, bigint) returns text language sql immutable return 'forged'`);
    await owner.query('create operator planted.|| (leftarg = text, rightarg = bigint, function = planted.forged)');
    await owner.query("select set_config('search_path', 'planted, pg_catalog, public', false)");
    try {
      expect(await owner.query(`select '{"id":' || 1::bigint as text`)).toMatchObject({ rows: [{ text: 'forged' }] });
      const { rows } = await owner.query<StoredEvent & { answer_now: string; cloud_event_now: string }>(
        `select x.*, public.audit_event_answer(e) as answer_now, public.audit_event_cloud_event(e, x.previous_hash) as cloud_event_now
           from (${COLUMNS_OF_EVENTS_SQL}) x join audit_events e on e.id = x.id`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.answer_now).toBe(answerOfColumns(rows[0]!));
      expect(rows[0]!.cloud_event_now).toBe(cloudEventOfColumns(rows[0]!, rows[0]!.previous_hash));
    } finally {
      await owner.query("select set_config('search_path', '\"$user\", public', false)");
    }
  });
});
