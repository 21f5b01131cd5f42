import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.ts';
import { spawnApi, type ApiProcess } from '../support/spawnApi.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * Two API processes, started by the real entry point, on one database: what one replica changes, the other must
 * refuse within a second, although it holds the key in its cache (through the tables' NOTIFY and its listener).
 */
const startApiProcess = () => spawnApi({ CACHE_TTL_SECONDS: '600' });

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
