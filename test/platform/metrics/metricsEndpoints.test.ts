import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../../platform/freePort.ts';
import { openOrm, type Orm } from '../../../store/orm.ts';
import { injectFault } from '../../../store/simulatorControl.ts';
import { eventually } from '../../support/eventually.ts';
import { spawnApi, type ApiProcess } from '../../support/spawnApi.ts';
import { spawnWorker } from '../../support/spawnWorker.ts';
import { uniqueSlug } from '../../support/testService.ts';

/** The API and the worker as the service runs them (their own processes), each with its /metrics listener. */
let api: ApiProcess;
let worker: ChildProcess;
let orm: Orm;
const ports = { api: 0, worker: 0 };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

beforeAll(async () => {
  const taskQueue = `metrics-${randomUUID()}`;
  ports.api = await freePort();
  ports.worker = await freePort();
  orm = await openOrm(inject('databaseUrl'), 1);
  worker = spawnWorker(taskQueue, { WORKER_METRICS_PORT: String(ports.worker) });
  api = await spawnApi({ TEMPORAL_TASK_QUEUE: taskQueue, METRICS_PORT: String(ports.api), PROVISIONING_WAIT_MS: '20000', PROVISIONING_RETRY_MAX_ATTEMPTS: '1' });
  await eventually(async () => (await fetch(`http://127.0.0.1:${ports.worker}/metrics`).catch(() => undefined))?.status === 200, 60_000, 'worker metrics');
}, 120_000);
afterAll(async () => {
  api?.child.kill('SIGTERM');
  worker?.kill('SIGTERM');
  await orm?.close();
});

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(api.base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (res.status === 204 ? undefined : await res.json()) as any };
};
const scrape = async (port: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};
/** The value of one sample, by metric name and exactly these labels (in any order). */
const sample = (text: string, name: string, labels: Record<string, string>): number | undefined => {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
};

describe('the /metrics endpoints of the API and the worker', () => {
  it('count requests by route template, verifications by code, claims, provisioning by outcome and step, with Temporal and process metrics', async () => {
    const created = await call('POST', '/v1/tenants', { slug: uniqueSlug('metrics'), name: 'Metrics', admin_email: `admin-${randomUUID()}@example.com` });
    expect(created.status).toBe(201);
    expect(created.body.invite_url).toBeTruthy();
    const tenantId = created.body.tenant.id;
    expect((await call('GET', `/v1/tenants/${tenantId}`)).status).toBe(200);
    await call('POST', '/v1/tenants/not-a-uuid/activate', {});
    await call('GET', '/no/such/path');

    // A verify of each outcome a key can have.
    const key = (await call('POST', '/v1/api-keys', { tenant_id: tenantId, name: 'ci', scopes: ['read'], product: 'analytics' })).body;
    const verdicts = [
      await call('POST', '/v1/internal/api-keys/verify', { key: key.plaintext }),
      await call('POST', '/v1/internal/api-keys/verify', { key: 'trk_nope' }),
      await call('POST', '/v1/internal/api-keys/verify', { key: key.plaintext, required_scopes: ['write'] }),
      await call('POST', '/v1/internal/api-keys/verify', { key: key.plaintext, product: 'billing' }),
    ];
    await call('POST', `/v1/tenants/${tenantId}/cancel`, {});
    verdicts.push(await call('POST', '/v1/internal/api-keys/verify', { key: key.plaintext }));
    await call('DELETE', `/v1/api-keys/${key.api_key.id}`);
    verdicts.push(await call('POST', '/v1/internal/api-keys/verify', { key: key.plaintext }));
    const codes = verdicts.map((v) => v.body.code);
    expect(codes).toEqual(['VALID', 'NOT_FOUND', 'INSUFFICIENT_SCOPE', 'WRONG_PRODUCT', 'TENANT_INACTIVE', 'REVOKED']);
    await call('POST', '/v1/internal/idp/claims', { tenant_id: tenantId });
    await call('POST', '/v1/internal/idp/claims', { tenant_id: randomUUID() });

    // A provisioning that fails at its first step.
    const failing = uniqueSlug('metricsfail');
    await injectFault(orm, { kind: 'unauthorized', step: 'organization', tenantSlug: failing, times: 5 });
    const failed = await call('POST', '/v1/tenants', { slug: failing, name: 'Failing', admin_email: `admin-${randomUUID()}@example.com` });
    expect(failed.status).toBe(201);
    expect(failed.body.invite_url).toBeUndefined();

    // The tenant's key listing read twice: a miss, then (once no notification raced the first read) a hit.
    await eventually(async () => {
      expect((await call('GET', `/v1/api-keys?tenant_id=${tenantId}`)).status).toBe(200);
      return (sample(await scrape(ports.api), 'tenant_registry_cache_lookups_total', { cache: 'listing', result: 'hit' }) ?? 0) >= 1;
    }, 10_000, 'a listing answered from memory');
    const apiText = await scrape(ports.api);
    expect(sample(apiText, 'tenant_registry_cache_lookups_total', { cache: 'listing', result: 'miss' })).toBeGreaterThanOrEqual(1);
    for (const code of codes) expect(sample(apiText, 'tenant_registry_api_key_verifications_total', { code }), code).toBeGreaterThanOrEqual(1);
    expect(sample(apiText, 'tenant_registry_claims_resolutions_total', { outcome: 'resolved' })).toBe(1);
    expect(sample(apiText, 'tenant_registry_claims_resolutions_total', { outcome: 'not_found' })).toBe(1);
    expect(sample(apiText, 'tenant_registry_http_request_duration_seconds_count', { method: 'GET', route: '/v1/tenants/{id}', status: '200' })).toBe(1);
    expect(sample(apiText, 'tenant_registry_http_request_duration_seconds_count', { method: 'POST', route: '/v1/tenants', status: '201' })).toBe(2);
    expect(sample(apiText, 'tenant_registry_http_request_duration_seconds_count', { method: 'POST', route: '/v1/tenants/{id}/activate', status: '400' })).toBe(1);
    expect(sample(apiText, 'tenant_registry_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(apiText, 'tenant_registry_http_request_duration_seconds_bucket', { method: 'POST', route: '/v1/internal/api-keys/verify', status: '200', le: '+Inf' })).toBe(6);
    expect(sample(apiText, 'tenant_registry_cache_lookups_total', { cache: 'api_key', result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(sample(apiText, 'tenant_registry_cache_lookups_total', { cache: 'api_key', result: 'miss' })).toBeGreaterThanOrEqual(1);
    // Every part's entries are exported (what they count, and the sweep, are checked in registryCache.test.ts: here a
    // late notification of the changes above may have emptied any part by the time of the scrape).
    for (const part of ['api_key', 'missing_api_key', 'tenant', 'tenant_document', 'entitlements', 'member', 'member_list', 'directory', 'directory_read', 'listing', 'product_clients']) {
      expect(sample(apiText, 'tenant_registry_cache_entries', { cache: part }), part).toBeGreaterThanOrEqual(0);
    }
    expect(apiText).toMatch(/^tenant_registry_outbox_backlog \d+$/m);
    expect(apiText).toMatch(/^tenant_registry_http_requests_waiting 0$/m);
    expect(apiText).toMatch(/^tenant_registry_http_requests_running \d+$/m);
    expect(apiText).toMatch(/^process_cpu_seconds_total /m);
    // What the alerts read (deploy/prometheus/): the readiness checks, the streams' lag, the certificates (none without TLS).
    expect(sample(apiText, 'tenant_registry_readiness_check_up', { check: 'store' })).toBe(1);
    expect(sample(apiText, 'tenant_registry_readiness_check_up', { check: 'temporal' })).toBe(1);
    expect(apiText).toMatch(/^tenant_registry_audit_stream_lag_seconds \d+(\.\d+)?(e[+-]?\d+)?$/m);
    expect(apiText).toMatch(/^tenant_registry_audit_streams \d+$/m);
    expect(apiText).toMatch(/^# TYPE tenant_registry_certificate_expiry_timestamp_seconds gauge$/m);
    expect(apiText).not.toMatch(/^tenant_registry_certificate_expiry_timestamp_seconds\{/m);
    // Route templates only: no id ever becomes a label value.
    expect(apiText.split('\n').filter((line) => UUID.test(line))).toEqual([]);
    const ids = [tenantId, key.api_key.id, failed.body.tenant.id];

    const workerText = await eventually(async () => {
      const text = await scrape(ports.worker);
      return sample(text, 'tenant_registry_provisioning_outcomes_total', { command: 'provision', outcome: 'failed', step: 'organization', kind: 'unauthorized' }) ? text : undefined;
    }, 10_000, 'the failed provisioning counted');
    expect(sample(workerText, 'tenant_registry_provisioning_outcomes_total', { command: 'provision', outcome: 'succeeded', step: 'none', kind: 'none' })).toBeGreaterThanOrEqual(1);
    for (const step of ['organization', 'user', 'membership', 'invite', 'push_claims']) {
      expect(sample(workerText, 'tenant_registry_provisioning_step_duration_seconds_count', { step, outcome: 'succeeded' }), step).toBeGreaterThanOrEqual(1);
    }
    expect(sample(workerText, 'tenant_registry_provisioning_step_duration_seconds_count', { step: 'organization', outcome: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(workerText).toMatch(/^tenant_registry_worker_ready 1$/m);
    expect(workerText).toMatch(/^# TYPE tenant_registry_provider_sync_failures_total counter$/m);
    expect(workerText).toMatch(/^# TYPE tenant_registry_certificate_expiry_timestamp_seconds gauge$/m);
    // The Temporal SDK's own worker metrics, in the same scrape.
    expect(workerText).toMatch(/^temporal_\w+/m);
    expect(workerText).toMatch(/^process_cpu_seconds_total /m);
    // (This test's task queue is named with a UUID; the tenants' and keys' ids appear nowhere.)
    for (const id of ids) expect(workerText).not.toContain(id);
  });
});
