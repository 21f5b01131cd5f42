import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { PostgresAuditRepository } from '../../store/postgresAuditRepository.ts';

// As the service runs: the runtime role, on a pool of its own, so its connections have chained nothing before.
let orm: Orm;
let audit: PostgresAuditRepository;
beforeAll(async () => {
  orm = await openOrm(inject('runtimeDatabaseUrl'), 1);
  audit = new PostgresAuditRepository(orm);
});
afterAll(() => orm.close());

const rowsOf = (outcomeId: string) =>
  orm.em.fork().execute<{ id: string }[]>(`select id from audit_events where metadata->>'outcome_id' = ?`, [outcomeId]);

describe('PostgresAuditRepository.appendOutcomeOnce', () => {
  it('records an outcome once, and recording it again (a retried activity) succeeds without a second event', async () => {
    const outcome = {
      action: 'idp.invite_sent',
      tenant_id: randomUUID(),
      metadata: { outcome_id: randomUUID(), resend: false },
    };
    // The second call appends nothing, in a transaction of its own: no row sets the chain's running values there, and
    // the chain head must stay as it is rather than fail the statement.
    await expect(audit.appendOutcomeOnce(outcome as never, SYSTEM_ACTOR)).resolves.toBeUndefined();
    await expect(audit.appendOutcomeOnce(outcome as never, SYSTEM_ACTOR)).resolves.toBeUndefined();
    expect(await rowsOf(outcome.metadata.outcome_id)).toHaveLength(1);
  });
});

describe('PostgresAuditRepository.pageJson', () => {
  it('pages a product or an action the newest events lack newest first, through every page and with a time range, as any filter', async () => {
    const product = `sparse-${randomUUID()}`;
    const action = `sparse.${randomUUID()}`;
    const mine: number[] = [];
    for (let i = 0; i < 5; i++) mine.push((await audit.append({ action, product } as never, SYSTEM_ACTOR)).id as unknown as number);
    // Newer events of other products and actions lie above them, as in a log whose newest events are another product's.
    await audit.insertBatch(Array.from({ length: 300 }, () => ({ event: { action: 'other.happened', product: `other-${randomUUID()}` } as never, meta: SYSTEM_ACTOR })));
    const newestFirst = [...mine].map(Number).sort((a, b) => b - a);

    for (const filter of [{ product }, { action }, { product, action }]) {
      const first = JSON.parse((await audit.pageJson({ ...filter, limit: 2 } as never)).json);
      expect(first.items.map((e: { id: number }) => Number(e.id))).toEqual(newestFirst.slice(0, 2));
      const second = JSON.parse((await audit.pageJson({ ...filter, limit: 2, cursor: first.next_cursor } as never)).json);
      expect(second.items.map((e: { id: number }) => Number(e.id))).toEqual(newestFirst.slice(2, 4));
      const last = JSON.parse((await audit.pageJson({ ...filter, limit: 2, cursor: second.next_cursor } as never)).json);
      expect(last.items.map((e: { id: number }) => Number(e.id))).toEqual(newestFirst.slice(4));
      expect(last.next_cursor).toBeUndefined();
      const ranged = JSON.parse((await audit.pageJson({ ...filter, since: new Date(Date.now() - 60_000).toISOString(), limit: 10 } as never)).json);
      expect(ranged.items.map((e: { id: number }) => Number(e.id))).toEqual(newestFirst);
    }
  });
});
