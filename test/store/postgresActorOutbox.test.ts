import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

/**
 * The outbox's statements on one row of this file's own, kept out of the other files' relays (next attempt far
 * ahead) while it is looked at.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const sql = (text: string, params: unknown[] = []) => service.orm.em.fork().execute<Record<string, any>[]>(text, params);

async function ownEntry(attempts: number) {
  const tenantId = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('outbox'), name: 'Outbox' })).body.tenant.id;
  const [row] = await sql(
    `update tenant_actor_outbox set attempts = ?, next_attempt_at = now() + interval '1 day' where tenant_id = ? returning id, command`,
    [attempts, tenantId],
  );
  return { id: Number(row!.id), tenantId, command: row!.command, attempts };
}

describe('PostgresActorOutbox', () => {
  it('after a failed attempt below the limit, records the error and backs off from now', async () => {
    const entry = await ownEntry(2);
    expect(await service.deps.stores.outbox.recordDeliveryError(entry, 'unreachable', 5)).toEqual({ deadLettered: false });
    const [row] = await sql(`select last_error, dead_lettered_at, extract(epoch from next_attempt_at - now()) as wait from tenant_actor_outbox where id = ?`, [entry.id]);
    expect(row).toMatchObject({ last_error: 'unreachable', dead_lettered_at: null });
    expect(Number(row!.wait)).toBeGreaterThan(2);
    expect(Number(row!.wait)).toBeLessThan(10);
  });

  it('dead-letters at the last attempt, and counts it in the backlog apart from the pending ones', async () => {
    const entry = await ownEntry(5);
    const before = await service.deps.stores.outbox.backlog();
    expect(await service.deps.stores.outbox.recordDeliveryError(entry, 'unreachable', 5)).toEqual({ deadLettered: true });
    const [row] = await sql(`select dead_lettered_at from tenant_actor_outbox where id = ?`, [entry.id]);
    expect(row!.dead_lettered_at).not.toBeNull();
    const after = await service.deps.stores.outbox.backlog();
    expect(after.deadLettered).toBe(before.deadLettered + 1);
  });
});
