import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { eventually } from '../../support/eventually.ts';
import { startFakeKeycloak, type FakeKeycloak } from '../../support/fakeKeycloak.ts';
import { spawnApi, type ApiProcess } from '../../support/spawnApi.ts';
import { spawnWorker } from '../../support/spawnWorker.ts';
import { uniqueSlug } from '../../support/testService.ts';
import { testPayloadCodec } from '../../support/testTemporalAccess.ts';

/** A span as OTLP/HTTP JSON carries it, with the service that exported it. */
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, unknown>;
}

/** A local OTLP/HTTP trace receiver: what a collector would get from the API and the worker. */
async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.startsWith('application/json')) {
        for (const resourceSpans of JSON.parse(body).resourceSpans ?? []) {
          const service = resourceSpans.resource?.attributes?.find((a: { key: string }) => a.key === 'service.component')?.value?.stringValue;
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              const attributes = Object.fromEntries((span.attributes ?? []).map((a: { key: string; value: Record<string, unknown> }) => [a.key, Object.values(a.value)[0]]));
              spans.push({ traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId || undefined, name: span.name, kind: span.kind, service, attributes });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, close: () => new Promise((r) => server.close(() => r())) };
}

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let keycloak: FakeKeycloak;
let api: ApiProcess;
let worker: ChildProcess;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  keycloak = await startFakeKeycloak();
  const taskQueue = `tracing-${randomUUID()}`;
  const env = {
    TEMPORAL_TASK_QUEUE: taskQueue,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    // Export within half a second rather than the SDK's five.
    OTEL_BSP_SCHEDULE_DELAY: '200',
    IDP_ADMIN_URL: keycloak.url,
    IDP_ADMIN_REALM: keycloak.realm,
    IDP_ADMIN_CLIENT_ID: keycloak.clientId,
    IDP_ADMIN_CLIENT_SECRET: keycloak.secret,
  };
  worker = spawnWorker(taskQueue, env);
  api = await spawnApi({ ...env, PROVISIONING_WAIT_MS: '30000' });
}, 120_000);
afterAll(async () => {
  api?.child.kill('SIGTERM');
  worker?.kill('SIGTERM');
  await keycloak?.close();
  await receiver?.close();
});

/** A caller's W3C traceparent, so each request's trace is known to the test. */
function newTraceparent(): { traceparent: string; traceId: string; callerSpanId: string } {
  const traceId = randomUUID().replaceAll('-', '');
  const callerSpanId = randomUUID().replaceAll('-', '').slice(0, 16);
  return { traceparent: `00-${traceId}-${callerSpanId}-01`, traceId, callerSpanId };
}

/** The spans of `traceIds` whose parent is not among the spans received, but for the caller's own (`external`). */
function orphansOf(traceIds: Set<string>, external: Set<string>): ReceivedSpan[] {
  const spans = receiver.spans.filter((s) => traceIds.has(s.traceId));
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.filter((s) => s.parentSpanId !== undefined && !ids.has(s.parentSpanId) && !external.has(s.parentSpanId));
}

/** The names of a span's ancestors among the spans received, nearest first. */
function ancestorNames(span: ReceivedSpan): string[] {
  const byId = new Map(receiver.spans.map((s) => [s.spanId, s]));
  const chain: string[] = [];
  for (let s = span.parentSpanId ? byId.get(span.parentSpanId) : undefined; s; s = s.parentSpanId ? byId.get(s.parentSpanId) : undefined) chain.push(s.name);
  return chain;
}

describe('OpenTelemetry traces', () => {
  it('follow one tenant creation from the HTTP request through the workflow and each provisioning step into the identity provider', async () => {
    const traceparent = `00-${randomUUID().replaceAll('-', '')}-${randomUUID().replaceAll('-', '').slice(0, 16)}-01`;
    const traceId = traceparent.split('-')[1]!;
    const res = await fetch(`${api.base}/v1/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent },
      body: JSON.stringify({ slug: uniqueSlug('traced'), name: 'Traced', admin_email: `admin-${randomUUID()}@example.com` }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { invite_url?: string }).invite_url).toBeTruthy();

    const names = ['ProviderStep:organization', 'ProviderStep:user', 'ProviderStep:membership', 'ProviderStep:invite', 'ProviderStep:push_claims'];
    const spans = await eventually(async () => {
      const ofTrace = receiver.spans.filter((s) => s.traceId === traceId);
      // With the spans that end last (the request, the command, the read after it): all of the trace has arrived.
      const expected = [...names, 'RunActivity:runProviderSteps', 'HandleUpdate:provisionAndWait', 'TenantActor:provision', 'TenantActor:readTimeline', 'POST /v1/tenants'];
      return expected.every((name) => ofTrace.some((s) => s.name === name)) ? ofTrace : undefined;
    }, 20_000, 'the spans of the creation');

    // The HTTP request, continuing the caller's trace; the workflow; each step; the provider's HTTP calls.
    const server = spans.find((s) => s.name === 'POST /v1/tenants')!;
    expect(server).toMatchObject({ service: 'api', kind: 2, parentSpanId: traceparent.split('-')[2] });
    // The workflow: the update the request waits on, handled in the worker, and the actor's provision command that
    // the update enqueued, which schedules each step; then the timeline read that follows the command.
    const update = spans.find((s) => s.name === 'UpdateWithStartWorkflow:provisionAndWait')!;
    expect(update).toMatchObject({ service: 'api', parentSpanId: server.spanId });
    const handled = spans.find((s) => s.name === 'HandleUpdate:provisionAndWait')!;
    expect(handled).toMatchObject({ service: 'worker', parentSpanId: update.spanId });
    const command = spans.find((s) => s.name === 'TenantActor:provision')!;
    expect(command).toMatchObject({ service: 'worker', parentSpanId: handled.spanId });
    const followUp = spans.find((s) => s.name === 'TenantActor:readTimeline')!;
    expect(followUp.parentSpanId).toBe(command.spanId);
    const scheduled = spans.filter((s) => s.name.startsWith('StartActivity:'));
    expect(new Set(scheduled.map((s) => s.parentSpanId))).toEqual(new Set([command.spanId, followUp.spanId]));
    expect(scheduled.filter((s) => s.parentSpanId === followUp.spanId).map((s) => s.name)).toEqual(['StartActivity:loadTenantTimeline']);
    // The provider's steps run in one activity, each step its own span within it.
    const stepsRun = spans.find((s) => s.name === 'RunActivity:runProviderSteps')!;
    expect(spans.find((s) => s.spanId === stepsRun.parentSpanId)?.name).toBe('StartActivity:runProviderSteps');
    for (const name of names) expect(spans.find((s) => s.name === name)!.parentSpanId, name).toBe(stepsRun.spanId);
    const httpCalls = spans.filter((s) => s.kind === 3 && String(s.attributes['url.full'] ?? '').startsWith(keycloak.url));
    expect(httpCalls.map((s) => s.attributes['http.request.method'])).toEqual(expect.arrayContaining(['POST', 'GET']));
    expect(httpCalls.some((s) => String(s.attributes['url.full']).includes('/organizations'))).toBe(true);
    expect(httpCalls.some((s) => String(s.attributes['url.full']).includes('/tenant-registry/invite'))).toBe(true);

    // Parent links intact: every span's parent is a span of this trace, but for the request's (the caller's span).
    const ids = new Set(spans.map((s) => s.spanId));
    const orphans = spans.filter((s) => s !== server && (!s.parentSpanId || !ids.has(s.parentSpanId)));
    expect(orphans.map((s) => s.name)).toEqual([]);
    // Each provider call descends from a provisioning step, which descends from the request.
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const ancestors = (span: ReceivedSpan) => {
      const chain: string[] = [];
      for (let s = span.parentSpanId ? byId.get(span.parentSpanId) : undefined; s; s = s.parentSpanId ? byId.get(s.parentSpanId) : undefined) chain.push(s.name);
      return chain;
    };
    for (const call of httpCalls) {
      const chain = ancestors(call);
      expect(chain.some((name) => names.includes(name)), call.name).toBe(true);
      expect(chain.at(-1), call.name).toBe('POST /v1/tenants');
    }
  });

  it("every span of a tenant creation's trace and of a claims change's has its parent in the trace, the actor's commands included", async () => {
    // The creation: provisioning through the actor (update-with-start, the provision command, its activities).
    const creation = newTraceparent();
    const created = await fetch(`${api.base}/v1/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: creation.traceparent },
      body: JSON.stringify({ slug: uniqueSlug('orphans'), name: 'No orphans', admin_email: `admin-${randomUUID()}@example.com` }),
    });
    expect(created.status).toBe(201);
    const tenantId = ((await created.json()) as { tenant: { id: string } }).tenant.id;
    // A claims change: the pushClaims command (signal-with-start, handed off after the response).
    const change = newTraceparent();
    const activated = await fetch(`${api.base}/v1/tenants/${tenantId}/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: change.traceparent },
      body: JSON.stringify({ plan: 'growth' }),
    });
    expect(activated.status).toBe(200);

    // Every trace the tenant's actor exported into: the two requests' and any of its own (work no request caused).
    const workflowId = `tenant-${tenantId}`;
    const ofActor = (s: ReceivedSpan) => s.attributes['workflowId'] === workflowId || s.attributes['temporalWorkflowId'] === workflowId;
    const actorTraces = () => new Set([creation.traceId, change.traceId, ...receiver.spans.filter(ofActor).map((s) => s.traceId)]);
    // What both requests made happen, in whichever trace it landed.
    const has = (traceId: string, names: string[]) => names.every((name) => receiver.spans.some((s) => s.traceId === traceId && s.name === name));
    await eventually(
      async () =>
        has(creation.traceId, ['POST /v1/tenants', 'HandleUpdate:provisionAndWait', 'RunActivity:runProviderSteps']) &&
        has(change.traceId, ['HandleSignal:pushClaims']) &&
        receiver.spans.some((s) => ofActor(s) && s.name === 'RunActivity:pushTenantClaims'),
      20_000,
      'the spans of the creation and of the change',
    );
    const callers = new Set([creation.callerSpanId, change.callerSpanId]);
    // A parent ends after its children and may come in a later export: a few seconds for it to arrive.
    await eventually(async () => orphansOf(actorTraces(), callers).length === 0, 5_000).catch(() => undefined);
    expect(orphansOf(actorTraces(), callers).map((s) => `${s.service} ${s.name}`)).toEqual([]);

    // Each command is a span of its own, a child of the handler that received it; its activities descend from it.
    const ofTrace = (traceId: string, name: string) => receiver.spans.find((s) => s.traceId === traceId && s.name === name);
    const provision = ofTrace(creation.traceId, 'TenantActor:provision');
    expect(provision?.parentSpanId).toBe(ofTrace(creation.traceId, 'HandleUpdate:provisionAndWait')!.spanId);
    expect(ancestorNames(ofTrace(creation.traceId, 'RunActivity:runProviderSteps')!)).toContain('TenantActor:provision');
    const pushClaims = ofTrace(change.traceId, 'TenantActor:pushClaims');
    expect(pushClaims?.parentSpanId).toBe(ofTrace(change.traceId, 'HandleSignal:pushClaims')!.spanId);
    expect(ancestorNames(ofTrace(change.traceId, 'RunActivity:pushTenantClaims')!)).toContain('TenantActor:pushClaims');
    // Down to the caller: the command, the handler, the API's client call, the HTTP request.
    expect(ancestorNames(pushClaims!)).toEqual(['HandleSignal:pushClaims', 'SignalWithStartWorkflow:tenantActorWorkflow', 'POST /v1/tenants/{id}/activate']);
    // The timeline is read once the queue is empty, after the provisioning that made it stale: a child of that command.
    const readAfter = await eventually(async () => ofTrace(creation.traceId, 'TenantActor:readTimeline'), 5_000, 'the timeline read');
    expect(readAfter.parentSpanId).toBe(provision!.spanId);
    expect(receiver.spans.find((s) => s.traceId === creation.traceId && s.name === 'StartActivity:loadTenantTimeline')?.parentSpanId).toBe(readAfter.spanId);
  });

  it('a tenant actor traced with its command spans replays on the workflow code of a worker without tracing', async () => {
    const created = await fetch(`${api.base}/v1/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ slug: uniqueSlug('replayed'), name: 'Replayed', admin_email: `admin-${randomUUID()}@example.com` }),
    });
    expect(created.status).toBe(201);
    const tenantId = ((await created.json()) as { tenant: { id: string } }).tenant.id;
    expect((await fetch(`${api.base}/v1/tenants/${tenantId}/activate`, { method: 'POST' })).status).toBe(200);
    const workflowId = `tenant-${tenantId}`;
    await eventually(
      async () => receiver.spans.some((s) => s.name === 'TenantActor:pushClaims' && s.attributes['workflowId'] === workflowId),
      20_000,
      'the claims push handled',
    );

    const connection = await Connection.connect({ address: inject('temporalAddress') });
    try {
      const dataConverter = { payloadCodecs: [testPayloadCodec()] };
      const history = await new Client({ connection, dataConverter }).workflow.getHandle(workflowId).fetchHistory();
      // The run's bundle is built without Temporal's tracing interceptors: the spans added no command to the history.
      await expect(Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter }, history, workflowId)).resolves.toBeUndefined();
    } finally {
      await connection.close();
    }
  });
});
