import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { deliverySignatureMatches } from '../../../domain/auditStreams/streamSignature.ts';
import { auditStreamWorkflowId } from '../../../workflows/auditStream/auditStreamMessages.ts';
import { startAuditStreamReconciler } from '../../../api/temporalClients/auditStreamReconciler.ts';
import { createLogger } from '../../../platform/logger.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { spawnWorker } from '../../support/spawnWorker.ts';

const SECRET = 'stream-secret-of-the-test-0123456789';
/** The receivers listen on loopback, which a stream may reach only when AUDIT_STREAM_ALLOWED_HOSTS names it. */
const RECEIVERS_ALLOWED = { AUDIT_STREAM_ALLOWED_HOSTS: ['127.0.0.1'] };

interface Delivery {
  eventId: number;
  body: string;
  event: Record<string, unknown>;
  signatureOk: boolean;
  /** The Standard Webhooks headers verified by the standardwebhooks library, the secret taken as its bytes. */
  standardOk: boolean;
  webhookId: string;
}

function standardSignatureOk(body: string, headers: IncomingMessage['headers']): boolean {
  try {
    new Webhook(SECRET, { format: 'raw' }).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}

/** A SIEM on loopback: records deliveries, refuses the next `refuse` ones with 500, can go down and come back on its port. */
async function startReceiver() {
  const deliveries: Delivery[] = [];
  let refuse = 0;
  let refused = 0;
  const handle = (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (refuse > 0) {
        refuse -= 1;
        refused += 1;
        res.writeHead(500).end();
        return;
      }
      deliveries.push({
        eventId: Number(req.headers['x-registry-event-id']),
        body,
        event: JSON.parse(body),
        signatureOk: deliverySignatureMatches(body, SECRET, req.headers['x-registry-signature'] as string),
        standardOk: standardSignatureOk(body, req.headers),
        webhookId: String(req.headers['webhook-id']),
      });
      res.writeHead(204).end();
    });
  };
  let server: Server = createServer(handle);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/siem`,
    deliveries,
    refuseNext(n: number) {
      refuse = n;
    },
    get refused() {
      return refused;
    },
    down: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
    async up() {
      server = createServer(handle);
      await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    },
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}

/** The first arrival of each event, in arrival order: at least once allows repeats, never a gap or a reordering. */
const firstArrivals = (deliveries: Delivery[]) => {
  const seen = new Set<number>();
  return deliveries.filter((d) => !seen.has(d.eventId) && seen.add(d.eventId));
};

const stacks: ActorStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.close();
});

async function appendFor(stack: ActorStack, tenantId: string, count: number, label: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await stack.service.request('POST', '/v1/audit', { action: `siem.${label}.${i}`, tenant_id: tenantId });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

describe('audit streams', () => {
  it('deliver every matching event in order, signed, through refusals and an outage of the receiver', async () => {
    const stack = await startActorStack({ settings: RECEIVERS_ALLOWED });
    stacks.push(stack);
    const receiver = await startReceiver();
    const tenantId = randomUUID();
    const created = await stack.service.request('POST', '/v1/audit/streams', { url: receiver.url, secret: SECRET, filter: { tenant_id: tenantId } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, filter: { tenant_id: tenantId } });
    expect(JSON.stringify(created.body)).not.toContain(SECRET);

    receiver.refuseNext(3);
    const expected = await appendFor(stack, tenantId, 10, 'first');
    // Events of another tenant are not the stream's.
    await appendFor(stack, randomUUID(), 3, 'other');
    await eventually(async () => firstArrivals(receiver.deliveries).length >= 10, 30_000, 'the first ten events');
    expect(receiver.refused).toBe(3);

    await receiver.down();
    expected.push(...(await appendFor(stack, tenantId, 10, 'during-outage')));
    await new Promise((done) => setTimeout(done, 3_000));
    await receiver.up();
    await eventually(async () => firstArrivals(receiver.deliveries).length >= 20, 60_000, 'the events sent while the receiver was down');

    const arrivals = firstArrivals(receiver.deliveries);
    expect(arrivals.map((d) => d.eventId)).toEqual(expected);
    expect(receiver.deliveries.every((d) => d.signatureOk)).toBe(true);
    expect(receiver.deliveries.every((d) => d.standardOk && d.webhookId === String(d.eventId))).toBe(true);
    // The body is the event as the log lists it, hash included.
    const listed = (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&limit=500`)).body.items.reverse();
    expect(arrivals.map((d) => d.event)).toEqual(listed);

    const streams = (await stack.service.request('GET', '/v1/audit/streams')).body.items;
    expect(streams.find((s: { id: string }) => s.id === created.body.id)).toMatchObject({ delivered_through_id: expected.at(-1) });
    await receiver.close();
  }, 120_000);

  it('a deleted stream stops: nothing appended afterwards is delivered, and its workflow ends', async () => {
    const stack = await startActorStack({ settings: RECEIVERS_ALLOWED });
    stacks.push(stack);
    const receiver = await startReceiver();
    const tenantId = randomUUID();
    const created = await stack.service.request('POST', '/v1/audit/streams', { url: receiver.url, secret: SECRET, filter: { tenant_id: tenantId } });
    await appendFor(stack, tenantId, 2, 'before-delete');
    await eventually(async () => receiver.deliveries.length >= 2, 30_000, 'deliveries before the deletion');
    expect((await stack.service.request('DELETE', `/v1/audit/streams/${created.body.id}`)).status).toBe(204);
    const handle = stack.dispatcher.client.workflow.getHandle(auditStreamWorkflowId(created.body.id));
    await eventually(async () => (await handle.describe()).status.name !== 'RUNNING', 30_000, 'the delivery workflow to end');
    const count = receiver.deliveries.length;
    await appendFor(stack, tenantId, 2, 'after-delete');
    await new Promise((done) => setTimeout(done, 1_500));
    expect(receiver.deliveries).toHaveLength(count);
    expect((await stack.service.request('GET', '/v1/audit/streams')).body.items.map((s: { id: string }) => s.id)).not.toContain(created.body.id);
    expect((await stack.service.request('DELETE', `/v1/audit/streams/${created.body.id}`)).status).toBe(404);
    const deletedEvents = (await stack.service.request('GET', `/v1/audit?action=audit.stream_deleted`)).body.items;
    expect(deletedEvents.some((e: { target_id: string }) => e.target_id === created.body.id)).toBe(true);
    await receiver.close();
  }, 60_000);

  it('a worker killed in the middle of delivering loses nothing: a restarted worker resumes without a gap', async () => {
    const stack = await startActorStack({ settings: RECEIVERS_ALLOWED, withoutWorker: true });
    stacks.push(stack);
    const receiver = await startReceiver();
    const tenantId = randomUUID();
    const worker = spawnWorker(stack.taskQueue, { AUDIT_STREAM_ALLOWED_HOSTS: '127.0.0.1' });
    const created = await stack.service.request('POST', '/v1/audit/streams', { url: receiver.url, secret: SECRET, filter: { tenant_id: tenantId } });
    expect(created.status).toBe(201);
    const expected = await appendFor(stack, tenantId, 5, 'before-kill');
    await eventually(async () => firstArrivals(receiver.deliveries).length >= 5, 60_000, 'deliveries by the first worker');
    // The receiver now refuses, so the worker is in the middle of retrying a delivery when it dies.
    receiver.refuseNext(1_000);
    expected.push(...(await appendFor(stack, tenantId, 5, 'around-kill')));
    await eventually(async () => receiver.refused > 0, 30_000, 'a refused delivery');
    worker.kill('SIGKILL');
    await new Promise((done) => worker.once('exit', done));
    receiver.refuseNext(0);
    expected.push(...(await appendFor(stack, tenantId, 5, 'after-kill')));
    await stack.startWorker();
    await eventually(async () => firstArrivals(receiver.deliveries).length >= 15, 90_000, 'every event after the restart');
    expect(firstArrivals(receiver.deliveries).map((d) => d.eventId)).toEqual(expected);
    expect(receiver.deliveries.every((d) => d.signatureOk)).toBe(true);
    await receiver.close();
  }, 150_000);

  it('a stream whose delivery never started (Temporal unreachable at creation) gets it from the reconciler, without a gap', async () => {
    const stack = await startActorStack({ settings: RECEIVERS_ALLOWED });
    stacks.push(stack);
    const receiver = await startReceiver();
    const tenantId = randomUUID();
    // Created straight in the store, as if the API's start of the workflow had failed.
    const stream = await stack.service.deps.stores.auditStreams.create(
      { id: randomUUID(), url: receiver.url, secret: SECRET, filter: { tenant_id: tenantId } },
      { action: 'audit.stream_created', metadata: { url: receiver.url, filter: { tenant_id: tenantId } } },
      {},
    );
    const expected = await appendFor(stack, tenantId, 3, 'before-reconcile');
    const reconciler = startAuditStreamReconciler({
      streams: stack.service.deps.stores.auditStreams,
      client: stack.service.deps.auditStreams!,
      log: createLogger('silent', 'test-reconciler'),
      intervalMs: 200,
    });
    try {
      await eventually(async () => firstArrivals(receiver.deliveries).length >= 3, 30_000, 'deliveries after reconciliation');
      expect(firstArrivals(receiver.deliveries).map((d) => d.eventId)).toEqual(expected);
      // Reconciling again leaves the running delivery as it is: one workflow, nothing delivered twice.
      await new Promise((done) => setTimeout(done, 600));
      expect(receiver.deliveries).toHaveLength(3);
    } finally {
      await reconciler.stop();
      await stack.service.request('DELETE', `/v1/audit/streams/${stream.id}`);
      await receiver.close();
    }
  }, 60_000);

  it('refuses a url that is not http(s) and a host outside AUDIT_STREAM_ALLOWED_HOSTS', async () => {
    const stack = stacks[0]!;
    expect((await stack.service.request('POST', '/v1/audit/streams', { url: 'ftp://siem.example/x', secret: SECRET })).status).toBe(400);
    expect((await stack.service.request('POST', '/v1/audit/streams', { url: 'http://siem.example/x', secret: 'short' })).status).toBe(400);
    const restricted = await startActorStack({ settings: { AUDIT_STREAM_ALLOWED_HOSTS: ['siem.example'] } });
    stacks.push(restricted);
    expect((await restricted.service.request('POST', '/v1/audit/streams', { url: 'http://evil.example/x', secret: SECRET })).status).toBe(400);
    const allowed = await restricted.service.request('POST', '/v1/audit/streams', { url: 'https://SIEM.example/ingest', secret: SECRET });
    expect(allowed.status).toBe(201);
    expect((await restricted.service.request('DELETE', `/v1/audit/streams/${allowed.body.id}`)).status).toBe(204);
  });
});
