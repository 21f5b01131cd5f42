import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { createLogger } from '../../platform/logger.ts';
import { untilAvailable } from '../../platform/untilAvailable.ts';
import { eventually } from '../support/eventually.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';

const root = resolve(import.meta.dirname, '../..');
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
});

/** An entry point as its own process; its JSON log lines are collected. */
function run(entry: string, env: Record<string, string>): { child: ChildProcess; lines: string[] } {
  const child = spawn(process.execPath, [resolve(root, entry)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', METRICS_PORT: '0', WORKER_METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(child);
  const lines: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  return { child, lines };
}

const viaProxy = (url: string, address: string) => {
  const proxied = new URL(url);
  proxied.host = address;
  return proxied.toString();
};

/** The API as its own process, reaching PostgreSQL through the proxy at `address`; its relays and reconciler idle. */
async function runApiThrough(address: string): Promise<{ child: ChildProcess; lines: string[]; port: number }> {
  const port = await freePort();
  const started = run('api/main.ts', {
    DATABASE_URL: viaProxy(inject('runtimeDatabaseUrl'), address),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_PAYLOAD_KEYS: inject('temporalPayloadKeys'),
    REGISTRY_SECRET_KEYS: inject('registrySecretKeys'),
    TEMPORAL_TASK_QUEUE: `start-${randomUUID()}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    OUTBOX_RELAY_INTERVAL_MS: String(24 * 3600_000),
    AUDIT_STREAM_RECONCILE_INTERVAL_MS: String(24 * 3600_000),
  });
  return { ...started, port };
}

describe('untilAvailable', () => {
  it('retries with a growing, bounded delay until the attempt succeeds', async () => {
    let calls = 0;
    const at: number[] = [];
    const result = await untilAvailable(
      'thing',
      async () => {
        at.push(performance.now());
        if (++calls < 4) throw new Error('down');
        return 'up';
      },
      createLogger('silent', 'test'),
      { initialMs: 20, maxMs: 40 },
    );
    expect(result).toBe('up');
    expect(calls).toBe(4);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(15);
    expect(gaps[2]).toBeGreaterThanOrEqual(35);
  });
});

describe('starting while a dependency is down', () => {
  it('the API waits for PostgreSQL, saying so on /readyz (503) meanwhile, and serves once it is back', async () => {
    const databaseUrl = new URL(inject('databaseUrl'));
    const proxy = await startTcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port) });
    proxy.cut();
    const { child, lines, port } = await runApiThrough(proxy.address);
    const base = `http://127.0.0.1:${port}`;
    const waiting = await eventually(async () => {
      const res = await fetch(`${base}/readyz`).catch(() => undefined);
      return res?.status === 503 ? ((await res.json()) as { checks: { store: { message: string } } }) : undefined;
    }, 30_000, '/readyz answering 503');
    expect(waiting.checks.store.message).toMatch(/PostgreSQL/);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const refused = await fetch(`${base}/v1/tenants`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    await eventually(async () => lines.some((line) => line.includes('waiting for PostgreSQL')), 10_000, 'the wait logged');
    expect(child.exitCode).toBeNull();

    proxy.restore();
    await eventually(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 60_000, 'ready once PostgreSQL is back');
    expect((await fetch(`${base}/v1/tenants?limit=1`)).status).toBe(200);
    child.kill('SIGTERM');
    await proxy.close();
  });

  it('the API that loses PostgreSQL in the middle of its start (after the schema check) waits for it too, rather than exiting', async () => {
    const databaseUrl = new URL(inject('databaseUrl'));
    const proxy = await startTcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port) });
    // The first statement of the start after the schema check: the audit streams' secrets sealed.
    proxy.cutWhenClientSends('secret_encrypted is null');
    const { child, lines, port } = await runApiThrough(proxy.address);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await eventually(async () => lines.some((line) => line.includes('"msg":"waiting for PostgreSQL"')) || child.exitCode !== null, 30_000, 'the cut noticed');
    expect(child.exitCode).toBeNull();
    proxy.restore();
    const base = `http://127.0.0.1:${port}`;
    await Promise.race([
      eventually(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 60_000, 'ready once PostgreSQL is back'),
      exited.then((code) => Promise.reject(new Error(`the API exited with ${code}: ${lines.slice(-5).join('\n')}`))),
    ]);
    expect((await fetch(`${base}/v1/tenants?limit=1`)).status).toBe(200);
    child.kill('SIGTERM');
    await proxy.close();
  }, 90_000);

  it('the worker waits for Temporal, logging each attempt, and connects once it is back', async () => {
    const [host, port] = inject('temporalAddress').split(':');
    const proxy = await startTcpProxy({ host: host!, port: Number(port) });
    proxy.cut();
    const { child, lines } = run('worker/main.ts', {
      DATABASE_URL: inject('runtimeDatabaseUrl'),
      TEMPORAL_ADDRESS: proxy.address,
      TEMPORAL_PAYLOAD_KEYS: inject('temporalPayloadKeys'),
      REGISTRY_SECRET_KEYS: inject('registrySecretKeys'),
      TEMPORAL_TASK_QUEUE: `start-${randomUUID()}`,
      IDP_ADMIN_URL: '',
    });
    await eventually(async () => lines.filter((line) => line.includes('waiting for Temporal')).length >= 2, 30_000, 'two attempts logged');
    expect(child.exitCode).toBeNull();
    proxy.restore();
    await eventually(async () => lines.some((line) => line.includes('tenant actor worker running')), 60_000, 'the worker running');
    child.kill('SIGTERM');
    await proxy.close();
  });
});
