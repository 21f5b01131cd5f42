import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { spawnApi, type ApiProcess } from '../support/spawnApi.ts';

/** The API process with INTERNAL_PORT: the internal calls on a listener of their own. */
let api: ApiProcess;
let internal: string;

beforeAll(async () => {
  const port = await freePort();
  internal = `http://127.0.0.1:${port}`;
  api = await spawnApi({ INTERNAL_PORT: String(port) });
}, 90_000);
afterAll(() => {
  api?.child.kill('SIGTERM');
});

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

describe('INTERNAL_PORT', () => {
  it('serves /v1/internal/* on the internal listener only: the public port answers them as unknown paths', async () => {
    const verify = { key: 'trk_nothing_here' };
    expect(await call(internal, 'POST', '/v1/internal/api-keys/verify', verify)).toMatchObject({ status: 200, body: { valid: false, code: 'NOT_FOUND' } });
    expect(await call(api.base, 'POST', '/v1/internal/api-keys/verify', verify)).toEqual({
      status: 404,
      body: { error: 'not_found', message: 'no route for POST /v1/internal/api-keys/verify' },
    });
    expect((await call(api.base, 'POST', '/v1/internal/idp/claims', { tenant_id: crypto.randomUUID() })).status).toBe(404);
    expect((await call(internal, 'POST', '/v1/internal/idp/claims', { tenant_id: crypto.randomUUID() })).body.error).toBe('not_found');
  });

  it('serves nothing else on the internal listener but the probes, which both ports answer', async () => {
    expect(await call(internal, 'GET', '/v1/tenants')).toEqual({ status: 404, body: { error: 'not_found', message: 'no route for GET /v1/tenants' } });
    expect((await call(internal, 'GET', '/openapi.json')).status).toBe(404);
    expect((await call(api.base, 'GET', '/v1/tenants')).status).toBe(200);
    for (const base of [api.base, internal]) {
      expect((await call(base, 'GET', '/healthz')).status).toBe(200);
      expect((await call(base, 'GET', '/readyz')).status).toBe(200);
    }
  });
});
