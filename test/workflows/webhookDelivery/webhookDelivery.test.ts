import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequenceOf } from '../../../domain/events/cloudEvent.ts';
import { webhookDeliveryWorkflowId } from '../../../workflows/webhookDelivery/webhookDeliveryMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { spawnWorker } from '../../support/spawnWorker.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { firstArrivals, startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.ts';

/** The receivers listen on loopback, which an endpoint may reach only when AUDIT_STREAM_ALLOWED_HOSTS names it. */
const RECEIVERS_ALLOWED = { AUDIT_STREAM_ALLOWED_HOSTS: ['127.0.0.1'] };

let stack: ActorStack;
const receivers: WebhookReceiver[] = [];
const stacks: ActorStack[] = [];
beforeAll(async () => {
  stack = await startActorStack({ settings: RECEIVERS_ALLOWED });
  stacks.push(stack);
}, 60_000);
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
  for (const each of stacks) await each.close();
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver();
  receivers.push(started);
  return started;
}

/** A product's events, appended through POST /v1/audit: an application event type of the catalog. */
async function append(on: ActorStack, tenantId: string, action: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await on.service.request('POST', '/v1/audit', { action, tenant_id: tenantId, metadata: { n: i } });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

async function subscribe(on: ActorStack, to: WebhookReceiver, body: Record<string, unknown>) {
  const created = await on.service.request('POST', '/v1/webhook-endpoints', { url: to.url, ...body });
  expect(created.status).toBe(201);
  to.trust(created.body.secret);
  return created.body as { id: string; secret: string; state: string; last_delivered_sequence: string };
}

/** A tenant of the registry (an endpoint may name only one that exists). */
async function newTenant(on: ActorStack): Promise<string> {
  const created = await on.service.request('POST', '/v1/tenants', { slug: uniqueSlug('hook'), name: 'Hooked' });
  expect(created.status).toBe(201);
  return created.body.tenant.id;
}

const stateOf = async (on: ActorStack, id: string) => (await on.service.request('GET', `/v1/webhook-endpoints/${id}`)).body;

describe('webhook delivery', () => {
  it('delivers each matching event in order as a signed CloudEvent, retrying through refusals (failing meanwhile, active after)', async () => {
    const hooks = await receiver();
    const tenantId = await newTenant(stack);
    const endpoint = await subscribe(stack, hooks, { types: ['invoice.paid'], tenant_id: tenantId });
    expect(endpoint).toMatchObject({ state: 'active', types: ['invoice.paid'], tenant_id: tenantId, secret: expect.stringMatching(/^whsec_/) });
    hooks.refuseNext(3);
    const expected = await append(stack, tenantId, 'invoice.paid', 5);
    // Neither another tenant's events nor another type are the endpoint's.
    await append(stack, randomUUID(), 'invoice.paid', 2);
    await append(stack, tenantId, 'invoice.voided', 2);
    await eventually(async () => (await stateOf(stack, endpoint.id)).state === 'failing', 30_000, 'the failing state');
    await eventually(async () => firstArrivals(hooks.deliveries).length >= 5, 60_000, 'the five events');
    expect(hooks.refused).toBe(3);

    const arrivals = firstArrivals(hooks.deliveries);
    expect(arrivals.map((d) => Number(d.webhookId))).toEqual(expected);
    for (const [i, delivery] of arrivals.entries()) {
      expect(delivery.verifiedBy).toEqual([endpoint.secret]);
      expect(delivery.contentType).toMatch(/^application\/cloudevents\+json/);
      expect(delivery.event).toMatchObject({ specversion: '1.0', id: String(expected[i]), type: 'invoice.paid', subject: tenantId, sequence: sequenceOf(expected[i]!), data: { n: i } });
    }
    // The body is the feed's CloudEvent, byte for byte.
    const feed = await (await fetch(`${stack.service.baseUrl}/v1/events?types=invoice.paid&tenant_id=${tenantId}`)).text();
    for (const delivery of arrivals) expect(feed).toContain(delivery.body);
    await eventually(async () => {
      const shown = await stateOf(stack, endpoint.id);
      return shown.state === 'active' && shown.last_delivered_sequence === sequenceOf(expected.at(-1)!);
    }, 30_000, 'the endpoint active again, delivered through the last event');
    const listed = (await stack.service.request('GET', '/v1/webhook-endpoints')).body.items;
    expect(listed.find((e: { id: string }) => e.id === endpoint.id)).toBeDefined();
    expect(JSON.stringify(listed)).not.toContain(endpoint.secret);
    expect(JSON.stringify(await stateOf(stack, endpoint.id))).not.toContain(endpoint.secret);
  }, 120_000);

  it('a replay delivers again, in order, from the sequence asked, each with the webhook-id it had; then delivery goes on', async () => {
    const hooks = await receiver();
    const tenantId = await newTenant(stack);
    const endpoint = await subscribe(stack, hooks, { types: ['order.shipped'], tenant_id: tenantId });
    const ids = await append(stack, tenantId, 'order.shipped', 4);
    await eventually(async () => hooks.deliveries.length >= 4, 30_000, 'the first deliveries');
    const first = hooks.deliveries.slice(0, 4);
    expect(first.map((d) => Number(d.webhookId))).toEqual(ids);

    const replayed = await stack.service.request('POST', `/v1/webhook-endpoints/${endpoint.id}/replay`, { from_sequence: first[1]!.event.sequence });
    expect(replayed.status).toBe(202);
    await eventually(async () => hooks.deliveries.length >= 7, 30_000, 'the replayed deliveries');
    expect(hooks.deliveries.slice(4, 7).map((d) => d.webhookId)).toEqual(first.slice(1).map((d) => d.webhookId));
    expect(hooks.deliveries.slice(4, 7).map((d) => d.body)).toEqual(first.slice(1).map((d) => d.body));
    expect(hooks.deliveries.every((d) => d.verifiedBy.length === 1)).toBe(true);

    const later = await append(stack, tenantId, 'order.shipped', 1);
    await eventually(async () => hooks.deliveries.length >= 8, 30_000, 'the event appended after the replay');
    expect(Number(hooks.deliveries[7]!.webhookId)).toBe(later[0]);
    // The number form of a sequence is taken too.
    expect((await stack.service.request('POST', `/v1/webhook-endpoints/${endpoint.id}/replay`, { from_sequence: later[0] })).status).toBe(202);
    await eventually(async () => hooks.deliveries.length >= 9, 30_000, 'the second replay');
    expect(Number(hooks.deliveries[8]!.webhookId)).toBe(later[0]);
    expect((await stack.service.request('POST', `/v1/webhook-endpoints/${randomUUID()}/replay`, { from_sequence: 1 })).status).toBe(404);
  }, 90_000);

  it('a rotated secret: both sign for the overlap (two signatures), then only the new one', async () => {
    const hooks = await receiver();
    const tenantId = await newTenant(stack);
    const endpoint = await subscribe(stack, hooks, { types: ['seat.added'], tenant_id: tenantId });
    await append(stack, tenantId, 'seat.added', 1);
    await eventually(async () => hooks.deliveries.length >= 1, 30_000, 'the delivery before the rotation');

    const rotated = await stack.service.request('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const overlapHours = (Date.parse(rotated.body.previous_secret_expires_at) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);
    hooks.trust(endpoint.secret, rotated.body.secret);
    await append(stack, tenantId, 'seat.added', 1);
    await eventually(async () => hooks.deliveries.length >= 2, 30_000, 'the delivery during the overlap');
    expect(hooks.deliveries[1]!.signatures).toHaveLength(2);
    expect(hooks.deliveries[1]!.verifiedBy).toEqual([endpoint.secret, rotated.body.secret]);

    // The day passes: the database owner moves the overlap's end into the past.
    await stack.service.orm.em.fork().execute(`update webhook_endpoints set previous_secret_until = now() - interval '1 second' where id = ?`, [endpoint.id]);
    await append(stack, tenantId, 'seat.added', 1);
    await eventually(async () => hooks.deliveries.length >= 3, 30_000, 'the delivery after the overlap');
    expect(hooks.deliveries[2]!.signatures).toHaveLength(1);
    expect(hooks.deliveries[2]!.verifiedBy).toEqual([rotated.body.secret]);
  }, 90_000);

  it('disabled delivers nothing and its workflow ends; enabled resumes where it stood; deleted stops for good', async () => {
    const hooks = await receiver();
    const tenantId = await newTenant(stack);
    const endpoint = await subscribe(stack, hooks, { types: ['plan.changed'], tenant_id: tenantId });
    const ids = await append(stack, tenantId, 'plan.changed', 1);
    await eventually(async () => hooks.deliveries.length >= 1, 30_000, 'the first delivery');
    const handle = stack.dispatcher.client.workflow.getHandle(webhookDeliveryWorkflowId(endpoint.id));

    const disabled = await stack.service.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { state: 'disabled' });
    expect(disabled.status).toBe(200);
    expect(disabled.body.state).toBe('disabled');
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED', 30_000, 'the delivery to end');
    ids.push(...(await append(stack, tenantId, 'plan.changed', 2)));
    expect(hooks.deliveries).toHaveLength(1);

    expect((await stack.service.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { state: 'active' })).body.state).toBe('active');
    await eventually(async () => hooks.deliveries.length >= 3, 30_000, 'the events appended while disabled');
    expect(hooks.deliveries.map((d) => Number(d.webhookId))).toEqual(ids);

    expect((await stack.service.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(204);
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED', 30_000, 'the delivery to end after the deletion');
    await append(stack, tenantId, 'plan.changed', 1);
    expect(hooks.deliveries).toHaveLength(3);
    expect((await stack.service.request('GET', `/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await stack.service.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    const audited = await stack.service.orm.em.fork().execute<{ action: string }[]>('select action from audit_events where target_id = ? order by id', [endpoint.id]);
    expect(audited.map((e) => e.action)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.updated', 'webhook_endpoint.updated', 'webhook_endpoint.deleted']);
  }, 90_000);

  it('a worker killed in the middle of delivering loses nothing and reorders nothing: a restarted worker resumes', async () => {
    const own = await startActorStack({ settings: RECEIVERS_ALLOWED, withoutWorker: true });
    stacks.push(own);
    const hooks = await receiver();
    const tenantId = await newTenant(own);
    const worker = spawnWorker(own.taskQueue, { AUDIT_STREAM_ALLOWED_HOSTS: '127.0.0.1' });
    const endpoint = await subscribe(own, hooks, { types: ['usage.recorded'], tenant_id: tenantId });
    const expected = await append(own, tenantId, 'usage.recorded', 5);
    // The spawned worker bundles the workflows first (tens of seconds on a loaded machine).
    await eventually(async () => firstArrivals(hooks.deliveries).length >= 5, 150_000, 'deliveries by the first worker');
    // The receiver now refuses, so the worker is retrying a delivery when it dies.
    hooks.refuseNext(1_000);
    expected.push(...(await append(own, tenantId, 'usage.recorded', 5)));
    await eventually(async () => hooks.refused > 0, 30_000, 'a refused delivery');
    worker.kill('SIGKILL');
    await new Promise((done) => worker.once('exit', done));
    hooks.refuseNext(0);
    expected.push(...(await append(own, tenantId, 'usage.recorded', 5)));
    await own.startWorker();
    await eventually(async () => firstArrivals(hooks.deliveries).length >= 15, 90_000, 'every event after the restart');
    expect(firstArrivals(hooks.deliveries).map((d) => Number(d.webhookId))).toEqual(expected);
    expect(hooks.deliveries.every((d) => d.verifiedBy.length === 1)).toBe(true);
    await eventually(async () => (await stateOf(own, endpoint.id)).last_delivered_sequence === sequenceOf(expected.at(-1)!), 30_000, 'the progress recorded');
  }, 300_000);
});
