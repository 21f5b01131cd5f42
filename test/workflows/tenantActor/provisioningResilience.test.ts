import { afterAll, describe, expect, inject, it } from 'vitest';
import { clearFaults, injectFault } from '../../../store/simulatorControl.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { spawnWorker } from '../../support/spawnWorker.ts';
import { startTcpProxy } from '../../support/tcpProxy.ts';
import { uniqueSlug } from '../../support/testService.ts';

const stacks: ActorStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.close();
});

const auditOf = async (stack: ActorStack, tenantId: string, action: string) =>
  (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=${action}`)).body.items as Array<{ metadata: Record<string, unknown> }>;

describe('a hand-off made while Temporal is unreachable', () => {
  it('is kept in the outbox and completes provisioning once Temporal is back', async () => {
    const [host, port] = inject('temporalAddress').split(':');
    const proxy = await startTcpProxy({ host: host!, port: Number(port) });
    const stack = await startActorStack({
      apiTemporalAddress: proxy.address,
      relayIntervalMs: 300,
      settings: { TEMPORAL_HANDOFF_TIMEOUT_MS: 1000, PROVISIONING_WAIT_MS: 2000 },
    });
    stacks.push(stack);
    proxy.cut();
    const slug = uniqueSlug('offline');
    const res = await stack.service.request('POST', '/v1/tenants', { slug, name: 'Offline', admin_email: `a@${slug}.example` });
    expect(res.status).toBe(201);
    expect(res.body.invite_url).toBeUndefined();
    const tenantId = res.body.tenant.id;
    const pending = await stack.service.orm.em.fork().execute(`select delivered_at from tenant_actor_outbox where tenant_id = ?`, [tenantId]);
    expect(pending).toEqual([{ delivered_at: null }]);
    proxy.restore();
    // The relay's grace period (15 s) protects an in-flight request's own hand-off; make the entry due now.
    await stack.service.orm.em.fork().execute(`update tenant_actor_outbox set next_attempt_at = now() where tenant_id = ?`, [tenantId]);
    await eventually(async () => (await auditOf(stack, tenantId, 'idp.invite_sent'))[0], 30_000, 'idp.invite_sent after reconnect');
    // The relay marks the entry once the actor's answer reached it. On a loaded machine a first delivery can run out
    // of its 1 s deadline after Temporal took it (the outcome's event comes, the entry is not marked): the relay then
    // backs off 2 s, 4 s, 8 s before it delivers again (idempotent) and marks it.
    const delivered = async () =>
      (await stack.service.orm.em.fork().execute(`select delivered_at from tenant_actor_outbox where tenant_id = ?`, [tenantId]))[0]!.delivered_at ?? undefined;
    expect(await eventually(delivered, 30_000, 'the outbox entry marked delivered')).not.toBeNull();
    await proxy.close();
  }, 90_000);
});

describe('a tenant creation while Temporal stalls', () => {
  it('answers 201 within PROVISIONING_WAIT_MS (and a margin), whatever Temporal does, and keeps the hand-off', async () => {
    const [host, port] = inject('temporalAddress').split(':');
    const proxy = await startTcpProxy({ host: host!, port: Number(port) });
    const stack = await startActorStack({ apiTemporalAddress: proxy.address, settings: { TEMPORAL_HANDOFF_TIMEOUT_MS: 1000, PROVISIONING_WAIT_MS: 1500 } });
    stacks.push(stack);
    // A connection that takes bytes and answers nothing: what a Temporal frontend going down mid-call looks like.
    await stack.dispatcher.ping();
    proxy.stall();
    const slug = uniqueSlug('stalled');
    const started = performance.now();
    const res = await stack.service.request('POST', '/v1/tenants', { slug, name: 'Stalled', admin_email: `a@${slug}.example` });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(201);
    expect(elapsed).toBeLessThan(1500 + 3000);
    const pending = await stack.service.orm.em.fork().execute(`select delivered_at from tenant_actor_outbox where tenant_id = ?`, [res.body.tenant.id]);
    expect(pending).toEqual([{ delivered_at: null }]);
    await proxy.close();
  });
});

describe('a worker killed in the middle of provisioning', () => {
  it('is replaced by a restarted worker that finishes without a second organization or user', async () => {
    const stack = await startActorStack({ withoutWorker: true, settings: { PROVISIONING_WAIT_MS: 1000, PROVISIONING_RETRY_MAX_ATTEMPTS: 1000 } });
    stacks.push(stack);
    const slug = uniqueSlug('killed');
    // The membership step keeps failing as unavailable, so provisioning is stuck after organization and user.
    await injectFault(stack.service.orm, { kind: 'unavailable', step: 'membership', tenantSlug: slug });
    const worker = spawnWorker(stack.taskQueue);
    const res = await stack.service.request('POST', '/v1/tenants', { slug, name: 'Killed', admin_email: `a@${slug}.example` });
    const tenantId = res.body.tenant.id;
    const orm = stack.service.orm;
    await eventually(async () => {
      const rows = await orm.em.fork().execute(`select count(*)::int as n from idp_sim_users where email = ?`, [`a@${slug}.example`]);
      return rows[0]!.n === 1;
    }, 30_000, 'user created by the first worker');
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    await clearFaults(orm, { tenantSlug: slug });
    await stack.startWorker();
    await eventually(async () => (await auditOf(stack, tenantId, 'idp.invite_sent'))[0], 90_000, 'idp.invite_sent after restart');
    const orgs = await orm.em.fork().execute(`select count(*)::int as n from idp_sim_organizations where jsonb_exists(attributes->'tenant_id', ?)`, [tenantId]);
    const users = await orm.em.fork().execute(`select count(*)::int as n from idp_sim_users where email = ?`, [`a@${slug}.example`]);
    expect(orgs[0]!.n).toBe(1);
    expect(users[0]!.n).toBe(1);
    expect(await auditOf(stack, tenantId, 'idp.provision_failed')).toHaveLength(0);
    // An attempt that died with its worker is retried only after its start-to-close timeout (30 s).
  }, 120_000);
});
