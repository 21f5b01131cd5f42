import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorStateQuery, tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { startDnsServer, type DnsServer } from '../../support/dnsServer.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

/**
 * The tenant actor's look-ups of its domains (SPEC-EXTENSIONS §9) on durable timers: real Temporal, PostgreSQL, a
 * real DNS server on loopback (dnsmasq) and the simulated provider. A test brings a look-up near by setting its time
 * in the table and handing the actor a `syncDomains`, after which it reads its timers again.
 */
let dns: DnsServer;
let stack: ActorStack;
beforeAll(async () => {
  dns = await startDnsServer();
  stack = await startActorStack({ settings: { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 500 } });
});
afterAll(async () => {
  await stack?.close();
  await dns?.close();
});

const request = (method: string, path: string, body?: unknown) => stack.service.request(method, path, body);
const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, unknown>[]>(text, values);
const domainOf = async (tenantId: string) => (await request('GET', `/v1/tenants/${tenantId}/domains`)).body.items[0];
const actionsOf = async (tenantId: string) =>
  ((await request('GET', `/v1/audit?tenant_id=${tenantId}&action_prefix=domain.&limit=100`)).body.items as { action: string; actor_type: string }[])
    .filter((e) => e.action.startsWith('domain.'))
    .reverse();
const stateOf = (tenantId: string) => stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId)).query(actorStateQuery);

/** A tenant with one pending domain; its actor has read the domain's first timer. */
async function tenantWithDomain() {
  const tenant = (await request('POST', '/v1/tenants', { slug: uniqueSlug('domwf'), name: 'Domain timers' })).body.tenant as { id: string };
  const domain = (await request('POST', `/v1/tenants/${tenant.id}/domains`, { domain: `${uniqueSlug('corp')}.test` })).body;
  await eventually(async () => (await stateOf(tenant.id)).timeline?.upcoming.some((e) => e.kind === 'domain_check'), 10_000, 'the first timer');
  return { tenantId: tenant.id, domain };
}

/** Moves the domain's next look-up to `inMs` from now and lets the actor read its timers again. */
async function checkIn(tenantId: string, domainId: string, inMs: number, extra = '') {
  const [row] = await sql(`update domains set next_check_at = now() + make_interval(secs => ?)${extra} where id = ? returning next_check_at`, [inMs / 1000, domainId]);
  const at = new Date(row!.next_check_at as string).getTime();
  await stack.dispatcher.deliver(tenantId, { kind: 'syncDomains' });
  // The actor has the new time once its state shows it (or the look-up already happened).
  await eventually(
    async () =>
      (await stateOf(tenantId)).timeline?.upcoming.some((e) => e.kind === 'domain_check' && Date.parse(e.at) === at) ||
      (await sql('select next_check_at from domains where id = ?', [domainId]))[0]!.next_check_at === null ||
      Date.parse((await sql('select next_check_at from domains where id = ?', [domainId]))[0]!.next_check_at as string) !== at,
    15_000,
    'the actor read the new time',
  );
}

describe("the tenant actor's domain look-ups", () => {
  it('verify a pending domain once its record is published, on a timer that fires across a worker restart', async () => {
    const { tenantId, domain } = await tenantWithDomain();
    await checkIn(tenantId, domain.id, 3_000);
    await stack.stopWorker();
    try {
      await dns.setTxt(domain.verification.name, [domain.verification.value]);
      await new Promise((r) => setTimeout(r, 3_500));
    } finally {
      await stack.startWorker();
    }
    // A restarted worker under load takes seconds to poll again; the timer itself is in Temporal.
    await eventually(async () => (await domainOf(tenantId)).state === 'verified', 30_000, 'verified by the actor');
    const events = await actionsOf(tenantId);
    expect(events.map((e) => e.action)).toEqual(['domain.added', 'domain.verified']);
    expect(events[1]!.actor_type).toBe('system');
    // Verified, the next look-up is DOMAIN_RECHECK_HOURS (24) away.
    const next = Date.parse((await sql('select next_check_at from domains where id = ?', [domain.id]))[0]!.next_check_at as string);
    expect(next - Date.now()).toBeGreaterThan(23 * 3600_000);
    await dns.setTxt(domain.verification.name, []);
  }, 60_000);

  it('fail a verified domain whose record is gone (domain.verification_lost) on its re-check', async () => {
    const { tenantId, domain } = await tenantWithDomain();
    await dns.setTxt(domain.verification.name, [domain.verification.value]);
    expect((await request('POST', `/v1/domains/${domain.id}/verify`)).body.state).toBe('verified');
    await dns.setTxt(domain.verification.name, []);
    await checkIn(tenantId, domain.id, 1_000);
    await eventually(async () => (await domainOf(tenantId)).state === 'failed', 30_000, 'failed by the re-check');
    expect((await actionsOf(tenantId)).map((e) => e.action)).toEqual(['domain.added', 'domain.verified', 'domain.verification_lost']);
  }, 60_000);

  it('fail a pending domain whose window has passed without its record (domain.failed), and look it up no more', async () => {
    const { tenantId, domain } = await tenantWithDomain();
    await checkIn(tenantId, domain.id, 1_000, `, created_at = now() - interval '73 hours'`);
    await eventually(async () => (await domainOf(tenantId)).state === 'failed', 30_000, 'failed at the window');
    expect((await actionsOf(tenantId)).map((e) => e.action)).toEqual(['domain.added', 'domain.failed']);
    expect((await sql('select next_check_at from domains where id = ?', [domain.id]))[0]!.next_check_at).toBeNull();
  }, 60_000);

  it('leave a pending domain as it is while the resolver does not answer, and look again later', async () => {
    const { tenantId, domain } = await tenantWithDomain();
    await dns.stop();
    try {
      await checkIn(tenantId, domain.id, 500);
      await eventually(async () => (await domainOf(tenantId)).last_checked_at === null && Date.parse(
        (await sql('select next_check_at from domains where id = ?', [domain.id]))[0]!.next_check_at as string,
      ) > Date.now() + 30_000, 10_000, 'the next look-up moved on');
      expect((await domainOf(tenantId)).state).toBe('pending');
    } finally {
      await dns.start();
    }
  }, 60_000);
});
