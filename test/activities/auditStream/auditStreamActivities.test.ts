import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createAuditStreamActivities } from '../../../activities/auditStream/auditStreamActivities.ts';
import type { StreamTargets } from '../../../domain/auditStreams/streamTargets.ts';
import { deliverySignatureMatches } from '../../../domain/auditStreams/streamSignature.ts';
import { postgresStores } from '../../../store/postgresStores.ts';
import { startTestService, type TestService } from '../../support/testService.ts';
import { testSecretBox } from '../../support/testSecretBox.ts';

const SECRET = 'stream-secret-of-the-test-0123456789';
/** A name the test's DNS answers: a public address when the stream is created, loopback when it is delivered. */
const SIEM = 'siem.rebinding.test';

let service: TestService;
let receiver: Server;
let receiverPort: number;
const received: { eventId: number; signatureOk: boolean }[] = [];
beforeAll(async () => {
  service = await startTestService({}, { resolveHost: async (host) => (host === SIEM ? ['93.184.215.14'] : Promise.reject(new Error(`ENOTFOUND ${host}`))) });
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ eventId: Number(req.headers['x-registry-event-id']), signatureOk: deliverySignatureMatches(body, SECRET, req.headers['x-registry-signature'] as string) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverPort = (receiver.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((done) => receiver.close(() => done()));
  await service.close();
});

/** A stream to SIEM, created through the API (its DNS answer public then), with two events of its tenant to deliver. */
async function streamWithEvents() {
  const tenantId = randomUUID();
  const created = await service.request('POST', '/v1/audit/streams', { url: `http://${SIEM}:${receiverPort}/siem`, secret: SECRET, filter: { tenant_id: tenantId } });
  expect(created.status).toBe(201);
  const ids: number[] = [];
  for (const label of ['one', 'two']) ids.push((await service.request('POST', '/v1/audit', { action: `siem.${label}`, tenant_id: tenantId })).body.id);
  return { id: created.body.id as string, startAfterId: created.body.delivered_through_id as number, ids };
}

const deliver = (targets: StreamTargets, streamId: string, afterId: number) => {
  const stores = postgresStores(service.deps.orm, testSecretBox());
  const activities = createAuditStreamActivities({ streams: stores.auditStreams, audit: stores.audit, timeoutMs: 2_000, targets, longPollMs: 0 });
  return new MockActivityEnvironment().run(activities.deliverAuditStreamBatch, streamId, afterId);
};

const streamRow = async (id: string) =>
  (await service.orm.em.fork().execute<{ delivered_through_id: string; last_error: string | null }[]>('select delivered_through_id, last_error from audit_streams where id = ?', [id]))[0]!;

describe('deliverAuditStreamBatch', () => {
  it('refuses a host that resolves to loopback at delivery (DNS rebinding): nothing is sent, delivery does not advance, and the stream says why', async () => {
    const stream = await streamWithEvents();
    const rebound: StreamTargets = { resolveHost: async (host) => (host === SIEM ? ['127.0.0.1'] : []) };
    await expect(deliver(rebound, stream.id, stream.startAfterId)).rejects.toMatchObject({
      type: 'target_refused',
      message: expect.stringContaining(`${SIEM} resolves to 127.0.0.1, a loopback address`),
    });
    expect(received.filter((r) => stream.ids.includes(r.eventId))).toEqual([]);
    const row = await streamRow(stream.id);
    expect(Number(row.delivered_through_id)).toBe(stream.startAfterId);
    expect(row.last_error).toMatch(new RegExp(`delivery of event ${stream.ids[0]} refused: ${SIEM} resolves to 127\\.0\\.0\\.1, a loopback address`));
  });

  it('with AUDIT_STREAM_ALLOWED_HOSTS naming the host delivers to what it resolves to, connecting to the checked address, signed with the stored secret', async () => {
    const stream = await streamWithEvents();
    const allowed: StreamTargets = { allowedHosts: [SIEM], resolveHost: async (host) => (host === SIEM ? ['127.0.0.1'] : []) };
    await expect(deliver(allowed, stream.id, stream.startAfterId)).resolves.toEqual({ status: 'delivering', deliveredThroughId: stream.ids[1] });
    expect(received.filter((r) => stream.ids.includes(r.eventId))).toEqual(stream.ids.map((eventId) => ({ eventId, signatureOk: true })));
    const row = await streamRow(stream.id);
    expect(Number(row.delivered_through_id)).toBe(stream.ids[1]);
    expect(row.last_error).toBeNull();
  });
});
