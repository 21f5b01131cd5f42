import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { eventually } from '../support/eventually.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * Two API processes, started by the real entry point, on one database: what one replica changes, the other must
 * refuse within a second, although it holds the key in its cache (through the tables' NOTIFY and its listener).
 */
const apiEntryPoint = resolve(import.meta.dirname, '../../api/main.ts');

interface ApiProcess {
  base: string;
  child: ChildProcess;
}

async function startApiProcess(): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [apiEntryPoint], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATABASE_URL: inject('runtimeDatabaseUrl'),
      DATABASE_MIGRATION_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_PAYLOAD_KEYS: inject('temporalPayloadKeys'),
      TEMPORAL_TASK_QUEUE: `replicas-${port}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      CACHE_TTL_SECONDS: '600',
      // Other test files' outbox rows are theirs to deliver: this process's relay must not take them.
      OUTBOX_RELAY_INTERVAL_MS: String(24 * 3600_000),
      AUDIT_STREAM_RECONCILE_INTERVAL_MS: String(24 * 3600_000),
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 60_000, `API on ${port}`);
  return { base, child };
}

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (res.status === 204 ? undefined : await res.json()) as any };
};

let a: ApiProcess;
let b: ApiProcess;
beforeAll(async () => {
  [a, b] = await Promise.all([startApiProcess(), startApiProcess()]);
}, 90_000);
afterAll(() => {
  for (const replica of [a, b]) replica?.child.kill('SIGTERM');
});

async function keyCachedOnBoth() {
  const tenant = await call(a.base, 'POST', '/v1/tenants', { slug: uniqueSlug('replica'), name: 'Replica' });
  const key = await call(a.base, 'POST', '/v1/api-keys', { tenant_id: tenant.body.tenant.id, name: 'k' });
  expect(key.status).toBe(201);
  // Verified twice on each: the second answer comes from the replica's cache.
  for (const replica of [a, b, a, b]) expect((await call(replica.base, 'POST', '/v1/internal/api-keys/verify', { key: key.body.plaintext })).body.code).toBe('VALID');
  return { id: key.body.api_key.id as string, plaintext: key.body.plaintext as string };
}

/** Milliseconds from `since` until replica b answers `code` for the key. */
async function untilRefusedOnB(plaintext: string, code: string, since: number): Promise<number> {
  for (;;) {
    const verdict = await call(b.base, 'POST', '/v1/internal/api-keys/verify', { key: plaintext });
    if (verdict.body.code === code) return Date.now() - since;
    if (Date.now() - since > 5_000) throw new Error(`replica b still answers ${verdict.body.code}`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

describe('API keys across two API processes', () => {
  it('a key revoked through one process stops verifying on the other within one second', async () => {
    const key = await keyCachedOnBoth();
    expect((await call(a.base, 'DELETE', `/v1/api-keys/${key.id}`)).status).toBe(204);
    expect(await untilRefusedOnB(key.plaintext, 'REVOKED', Date.now())).toBeLessThan(1_000);
  });

  it('a key rotated with grace 0 through one process stops verifying on the other within one second', async () => {
    const key = await keyCachedOnBoth();
    const rotated = await call(a.base, 'POST', `/v1/api-keys/${key.id}/rotate`, { grace_seconds: 0 });
    expect(rotated.status).toBe(201);
    expect(await untilRefusedOnB(key.plaintext, 'EXPIRED', Date.now())).toBeLessThan(1_000);
    expect((await call(b.base, 'POST', '/v1/internal/api-keys/verify', { key: rotated.body.plaintext })).body.code).toBe('VALID');
  });
});
