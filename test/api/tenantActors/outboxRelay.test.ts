import { afterAll, describe, expect, inject, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { startTcpProxy } from '../../support/tcpProxy.ts';
import { uniqueSlug } from '../../support/testService.ts';

const stacks: ActorStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.close();
});

describe('the outbox relay', () => {
  it('counts attempts, dead-letters a hand-off after the last one, says so in the audit log and the backlog, and leaves it alone', async () => {
    const [host, port] = inject('temporalAddress').split(':');
    const proxy = await startTcpProxy({ host: host!, port: Number(port) });
    proxy.cut();
    const stack = await startActorStack({
      apiTemporalAddress: proxy.address,
      relayIntervalMs: 200,
      outboxMaxAttempts: 2,
      settings: { TEMPORAL_HANDOFF_TIMEOUT_MS: 300, PROVISIONING_WAIT_MS: 500 },
    });
    stacks.push(stack);
    const slug = uniqueSlug('deadletter');
    const tenantId = (await stack.service.request('POST', '/v1/tenants', { slug, name: 'Dead letter', admin_email: `a@${slug}.example` })).body.tenant.id;
    const sql = (text: string, params: unknown[] = []) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, params);
    // Past the grace period the request's own hand-off has, at once.
    await sql(`update tenant_actor_outbox set next_attempt_at = now() where tenant_id = ?`, [tenantId]);

    const event = await eventually(async () => {
      const items = (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=tenant.handoff_dead_lettered`)).body.items;
      return items[0];
    }, 20_000, 'the dead-letter event');
    expect(event.metadata).toMatchObject({ command: 'provision', attempts: 2, last_error: expect.any(String) });
    const [row] = await sql(`select attempts, dead_lettered_at, delivered_at from tenant_actor_outbox where tenant_id = ?`, [tenantId]);
    expect(row).toMatchObject({ attempts: 2, delivered_at: null });
    expect(row!.dead_lettered_at).not.toBeNull();
    expect((await stack.service.deps.stores.outbox.backlog()).deadLettered).toBeGreaterThanOrEqual(1);

    // No longer the relay's: with Temporal back, the relay passes it by.
    proxy.restore();
    await sql(`update tenant_actor_outbox set next_attempt_at = now() where tenant_id = ?`, [tenantId]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const [after] = await sql(`select attempts from tenant_actor_outbox where tenant_id = ?`, [tenantId]);
    expect(after!.attempts).toBe(2);
    await proxy.close();
  });

  it('leases what it takes for longer than a pass can last, so another replica does not take it meanwhile', async () => {
    const stack = await startActorStack({ withoutWorker: true, relayIntervalMs: 24 * 3600_000 });
    stacks.push(stack);
    const outbox = stack.service.deps.stores.outbox;
    const slug = uniqueSlug('lease');
    const tenantId = (await stack.service.request('POST', '/v1/tenants', { slug, name: 'Lease' })).body.tenant.id;
    await stack.service.orm.em.fork().execute(`update tenant_actor_outbox set next_attempt_at = now(), delivered_at = null where tenant_id = ?`, [tenantId]);
    const first = (await outbox.leaseDue(1000, 60)).filter((entry) => entry.tenantId === tenantId);
    expect(first).toHaveLength(1);
    const second = (await outbox.leaseDue(1000, 60)).filter((entry) => entry.tenantId === tenantId);
    expect(second).toEqual([]);
    const [row] = await stack.service.orm.em.fork().execute<{ lease: number }[]>(
      `select extract(epoch from next_attempt_at - now()) as lease from tenant_actor_outbox where tenant_id = ?`,
      [tenantId],
    );
    expect(Number(row!.lease)).toBeGreaterThan(55);
  });
});
