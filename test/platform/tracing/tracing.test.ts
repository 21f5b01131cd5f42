import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { startFakeKeycloak, type FakeKeycloak } from '../../support/fakeKeycloak.ts';
import { spawnApi, type ApiProcess } from '../../support/spawnApi.ts';
import { spawnWorker } from '../../support/spawnWorker.ts';
import { uniqueSlug } from '../../support/testService.ts';

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
      const expected = [...names, 'RunActivity:runProviderSteps', 'POST /v1/tenants'];
      return expected.every((name) => ofTrace.some((s) => s.name === name)) ? ofTrace : undefined;
    }, 20_000, 'the spans of the creation');

    // The HTTP request, continuing the caller's trace; the workflow; each step; the provider's HTTP calls.
    const server = spans.find((s) => s.name === 'POST /v1/tenants')!;
    expect(server).toMatchObject({ service: 'api', kind: 2, parentSpanId: traceparent.split('-')[2] });
    // The workflow: the update the request waits on, handled in the worker, and the run that schedules each step.
    const update = spans.find((s) => s.name === 'UpdateWithStartWorkflow:provisionAndWait')!;
    expect(update).toMatchObject({ service: 'api', parentSpanId: server.spanId });
    expect(spans.find((s) => s.name === 'HandleUpdate:provisionAndWait')).toMatchObject({ service: 'worker', parentSpanId: update.spanId });
    const scheduled = spans.filter((s) => s.name.startsWith('StartActivity:'));
    const workflowRun = new Set(scheduled.map((s) => s.parentSpanId));
    expect(workflowRun.size).toBe(1);
    // The provider's steps run in one activity, each step its own span within it.
    const stepsRun = spans.find((s) => s.name === 'RunActivity:runProviderSteps')!;
    expect(spans.find((s) => s.spanId === stepsRun.parentSpanId)?.name).toBe('StartActivity:runProviderSteps');
    for (const name of names) expect(spans.find((s) => s.name === name)!.parentSpanId, name).toBe(stepsRun.spanId);
    const httpCalls = spans.filter((s) => s.kind === 3 && String(s.attributes['url.full'] ?? '').startsWith(keycloak.url));
    expect(httpCalls.map((s) => s.attributes['http.request.method'])).toEqual(expect.arrayContaining(['POST', 'GET']));
    expect(httpCalls.some((s) => String(s.attributes['url.full']).includes('/organizations'))).toBe(true);
    expect(httpCalls.some((s) => String(s.attributes['url.full']).includes('/tenant-registry/invite'))).toBe(true);

    // Parent links intact: every span's parent is a span of this trace, but for the request's (the caller's span) and
    // the scheduling ones': the actor's run span, which Temporal's interceptor ends when the run ends (an actor's run
    // lasts until it continues as new), so it is not exported yet.
    const ids = new Set([...spans.map((s) => s.spanId), ...workflowRun]);
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
      expect(chain.at(-1)?.startsWith('StartActivity:'), call.name).toBe(true);
    }
  });
});
