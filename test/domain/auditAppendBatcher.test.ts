import { describe, expect, it } from 'vitest';
import { AuditAppendBatcher } from '../../domain/audit/auditAppendBatcher.ts';
import type { AuditRepository } from '../../domain/audit/auditRepository.ts';

/** A stand-in for the repository's insertBatch: records each batch, answers rows with ascending ids, fails on request. */
function fakeInsert(options: { failWhen?: (rowCount: number, actions: unknown[]) => boolean; delayMs?: number } = {}) {
  const statements: { rows: number }[] = [];
  let nextId = 1;
  const insert: AuditRepository['insertBatch'] = async (tuples) => {
    const actions = tuples.map(({ event }) => event.action);
    statements.push({ rows: tuples.length });
    await new Promise((r) => setTimeout(r, options.delayMs ?? 5));
    if (options.failWhen?.(tuples.length, actions)) throw new Error('insert failed');
    return actions.map((action) => {
      const id = nextId++;
      return { id: String(id), answer: JSON.stringify({ id, action, created_at: new Date().toISOString(), hash: 'h' }) };
    });
  };
  return { insert, statements };
}

const meta = { sourceIp: '127.0.0.1' };

/** The event a batcher's answer carries. */
const appended = (row: { answer: string }) => JSON.parse(row.answer) as { id: number; action: string };

describe('AuditAppendBatcher', () => {
  it('writes a lone append at once, in a statement of its own', async () => {
    const { insert, statements } = fakeInsert();
    const batcher = new AuditAppendBatcher(insert);
    const event = appended(await batcher.append({ action: 'a.one' }, meta));
    expect(event).toMatchObject({ id: 1, action: 'a.one' });
    expect(statements).toEqual([{ rows: 1 }]);
  });

  it('writes appends that arrive while others are in flight together, each caller getting its own row', async () => {
    const { insert, statements } = fakeInsert();
    const batcher = new AuditAppendBatcher(insert, { maxInFlight: 1 });
    const events = (await Promise.all(Array.from({ length: 10 }, (_, i) => batcher.append({ action: `a.${i}` }, meta)))).map(appended);
    expect(events.map((e) => e.action)).toEqual(Array.from({ length: 10 }, (_, i) => `a.${i}`));
    expect(new Set(events.map((e) => e.id)).size).toBe(10);
    // The first went alone; the nine that queued behind it went as one statement.
    expect(statements.map((s) => s.rows)).toEqual([1, 9]);
  });

  it('refuses an append past maxQueued at once with unavailable, and accepts again once the queue drained', async () => {
    const { insert } = fakeInsert({ delayMs: 30 });
    const batcher = new AuditAppendBatcher(insert, { maxInFlight: 1, maxBatch: 2, maxQueued: 3 });
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => batcher.append({ action: `q.${i}` }, meta)));
    // One in flight at once, three queued behind it; the last two found the queue full.
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect((results[4] as PromiseRejectedResult).reason).toMatchObject({ code: 'unavailable' });
    expect(batcher.queued).toBe(0);
    expect(appended(await batcher.append({ action: 'q.after' }, meta))).toMatchObject({ action: 'q.after' });
  });

  it('retries a failed batch one append at a time, so only the bad one fails', async () => {
    const { insert } = fakeInsert({ failWhen: (rows, actions) => rows > 1 || actions[0] === 'a.bad' });
    const batcher = new AuditAppendBatcher(insert, { maxInFlight: 1 });
    const results = await Promise.allSettled(['a.first', 'a.ok', 'a.bad', 'a.fine'].map((action) => batcher.append({ action }, meta)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => appended((r as PromiseFulfilledResult<{ answer: string }>).value).action)).toEqual([
      'a.first',
      'a.ok',
      'a.fine',
    ]);
  });

  it('never puts more than maxBatch appends in one statement', async () => {
    const { insert, statements } = fakeInsert();
    const batcher = new AuditAppendBatcher(insert, { maxInFlight: 1, maxBatch: 4 });
    await Promise.all(Array.from({ length: 11 }, (_, i) => batcher.append({ action: `a.${i}` }, meta)));
    expect(statements.map((s) => s.rows)).toEqual([1, 4, 4, 2]);
  });
});
