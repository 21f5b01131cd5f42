import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { spawnApi, type ApiProcess } from '../support/spawnApi.ts';

/** The API process with INTERNAL_PORT: the internal calls on a listener of their own. */
let api: ApiProcess;
let internal: string;
/** A second one whose default budget is three requests an address, with no refill to speak of. */
let limited: ApiProcess;
let limitedInternal: string;

beforeAll(async () => {
  const [port, limitedPort] = [await freePort(), await freePort()];
  internal = `http://127.0.0.1:${port}`;
  limitedInternal = `http://127.0.0.1:${limitedPort}`;
  [api, limited] = await Promise.all([
    spawnApi({ INTERNAL_PORT: String(port) }),
    spawnApi({ INTERNAL_PORT: String(limitedPort), RATE_LIMIT_PER_SECOND: '0.001', RATE_LIMIT_BURST: '3' }),
  ]);
}, 90_000);
afterAll(() => {
  api?.child.kill('SIGTERM');
  limited?.child.kill('SIGTERM');
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

  it('answers a known internal path asked with another method 405 with Allow, as the public listener does', async () => {
    const res = await fetch(`${internal}/v1/internal/api-keys/verify`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it("spends one budget of a caller's whichever port it calls: the default class spent on the public port is spent on the internal one", async () => {
    for (let i = 0; i < 3; i += 1) expect((await fetch(`${limited.base}/v1/tenants`)).status).toBe(200);
    expect((await fetch(`${limited.base}/v1/tenants`)).status).toBe(429);
    const check = await fetch(`${limitedInternal}/v1/internal/idp/sso-sign-in-checks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(check.status).toBe(429);
  });
});
