import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { eventually } from '../support/eventually.ts';
import { spawnWorker } from '../support/spawnWorker.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';

/** The real worker process, reaching the run's Temporal through a proxy the test cuts and restores. */
let worker: ChildProcess;
let temporal: Awaited<ReturnType<typeof startTcpProxy>>;
let base: string;

beforeAll(async () => {
  const [host, port] = inject('temporalAddress').split(':') as [string, string];
  temporal = await startTcpProxy({ host, port: Number(port) });
  // Temporal away from the start: the worker waits for it, alive but not ready.
  temporal.cut();
  const metricsPort = await freePort();
  base = `http://127.0.0.1:${metricsPort}`;
  worker = spawnWorker(`health-${randomUUID()}`, { TEMPORAL_ADDRESS: temporal.address, WORKER_METRICS_PORT: String(metricsPort), READINESS_CACHE_MS: '0' });
  await eventually(async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.status === 200, 60_000, 'the worker listening');
});
afterAll(async () => {
  worker?.kill('SIGTERM');
  await temporal?.close();
});

const probe = async (path: string) => {
  const res = await fetch(base + path);
  return { status: res.status, body: (await res.json()) as any, cacheControl: res.headers.get('cache-control') };
};
const readyGauge = async () => /^tenant_registry_worker_ready (\d)$/m.exec(await (await fetch(`${base}/metrics`)).text())?.[1];

describe("the worker's health endpoints on its metrics listener", () => {
  it('is live while it waits for Temporal at start, and ready only once it polls Temporal', async () => {
    expect(await probe('/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const waiting = await probe('/readyz');
    expect(waiting.status).toBe(503);
    expect(waiting.body).toEqual({
      error: 'unavailable',
      message: 'the worker is not polling Temporal',
      checks: { worker: { status: 'down', message: 'starting' }, temporal: { status: 'down', message: 'not connected yet' } },
    });
    expect(waiting.cacheControl).toBe('no-store');
    expect(await readyGauge()).toBe('0');

    temporal.restore();
    const ready = await eventually(async () => {
      const answer = await probe('/readyz');
      return answer.status === 200 ? answer : undefined;
    }, 60_000, 'the worker ready');
    expect(ready.body).toEqual({ status: 'ready', checks: { worker: { status: 'up' }, temporal: { status: 'up' } } });
    expect(await readyGauge()).toBe('1');
  }, 90_000);

  it('is not ready while Temporal does not answer its connection, and ready again once Temporal is back, staying live throughout', async () => {
    await eventually(async () => (await probe('/readyz')).status === 200, 60_000, 'the worker ready');
    temporal.cut();
    const gone = await eventually(async () => {
      const answer = await probe('/readyz');
      return answer.status === 503 ? answer : undefined;
    }, 20_000, 'the worker not ready');
    // The Worker itself still runs (its pollers retry): the connection's answer is what tells.
    expect(gone.body.checks).toEqual({ worker: { status: 'up' }, temporal: { status: 'down', message: 'unreachable' } });
    expect(await readyGauge()).toBe('0');
    expect((await probe('/healthz')).status).toBe(200);

    temporal.restore();
    await eventually(async () => (await probe('/readyz')).status === 200, 60_000, 'the worker ready again');
    expect(await readyGauge()).toBe('1');
  }, 120_000);
});
