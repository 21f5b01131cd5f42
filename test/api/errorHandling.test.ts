import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runChecks, storeCheck } from '../../api/readinessChecks.ts';
import { openOrm } from '../../store/orm.ts';
import { startTestService, uniqueSlug, type TestResponse, type TestService } from '../support/testService.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

/** The Error body of SPEC.md: a string `error`, an optional string `message`, and nothing that leaks internals. */
function expectErrorBody(res: TestResponse, status: number, code?: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(typeof res.body.error).toBe('string');
  if (code) expect(res.body.error).toBe(code);
  if ('message' in res.body) expect(typeof res.body.message).toBe('string');
  const text = JSON.stringify(res.body);
  expect(text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|stack/i);
}

describe('error responses', () => {
  it('an unknown route answers 404 with the Error body', async () => {
    expectErrorBody(await service.request('GET', '/v1/nothing-here'), 404, 'not_found');
    expectErrorBody(await service.request('POST', '/v2/tenants', { slug: 'abc', name: 'x' }), 404, 'not_found');
  });

  it('malformed JSON answers 400 with the Error body', async () => {
    const res = await service.request('POST', '/v1/tenants', '{"slug": "abc", "name": ');
    expectErrorBody(res, 400, 'invalid_input');
  });

  it('a body that is JSON but not an object answers 400', async () => {
    expectErrorBody(await service.request('POST', '/v1/tenants', '[1,2,3]'), 400, 'invalid_input');
    expectErrorBody(await service.request('POST', '/v1/audit', 'null'), 400, 'invalid_input');
  });

  it('a required body that is missing answers 400', async () => {
    expectErrorBody(await service.request('POST', '/v1/tenants'), 400, 'invalid_input');
  });

  it('a body of another content type answers 415 with the Error body', async () => {
    const res = await service.request('POST', '/v1/tenants', JSON.stringify({ slug: uniqueSlug('ct'), name: 'x' }), {
      'content-type': 'text/plain',
    });
    expectErrorBody(res, 415, 'unsupported_media_type');
  });

  it('a form-encoded body answers 415', async () => {
    const res = await service.request('POST', '/v1/audit', 'action=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expectErrorBody(res, 415, 'unsupported_media_type');
  });

  it('application/json with a charset parameter is accepted', async () => {
    const res = await service.request('POST', '/v1/audit', { action: 'test.charset' }, { 'content-type': 'application/json; charset=utf-8' });
    expect(res.status).toBe(201);
  });

  it('a body over the configured limit answers 413 with the Error body', async () => {
    const small = await startTestService({ BODY_LIMIT_BYTES: 1024 });
    try {
      const res = await small.request('POST', '/v1/audit', { action: 'test.big', metadata: { blob: 'x'.repeat(2000) } });
      expectErrorBody(res, 413, 'payload_too_large');
      const ok = await small.request('POST', '/v1/audit', { action: 'test.small', metadata: { blob: 'x'.repeat(500) } });
      expect(ok.status).toBe(201);
    } finally {
      await small.close();
    }
  });

  it('a wrong method on a known path answers 405 with the Error body', async () => {
    expectErrorBody(await service.request('PUT', '/v1/tenants', { slug: 'abc', name: 'x' }), 405);
    expectErrorBody(await service.request('DELETE', `/v1/tenants/${randomUUID()}`), 405);
  });

  it.each(['TRACE', 'PROPFIND', 'LINK'])('%s, a method no route serves, answers 405 with Allow on every known path, never a 5xx', async (method) => {
    for (const path of ['/v1/tenants', `/v1/tenants/${randomUUID()}`, '/v1/internal/api-keys/verify', '/v1/audit/export', '/healthz']) {
      const res = await rawRequest(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.allow, `${method} ${path}`).toMatch(/\b(GET|POST)\b/);
      expect(JSON.parse(res.body).error).toBe('method_not_allowed');
    }
  });

  it('date-times with offsets PostgreSQL cannot take (beyond ±15:59) are normalised to UTC, never a 500', async () => {
    const since = encodeURIComponent('3016-01-06T23:03:31.015277-19:04');
    const until = encodeURIComponent('1011-10-04T14:12:51.151282+18:41');
    expect((await service.request('GET', `/v1/audit?since=${since}`)).status).toBe(200);
    expect((await rawRequest('GET', `/v1/audit/export?until=${until}&format=csv`)).status).toBe(200);
    // An offset that carries the instant into year 0 (or past 9999) is invalid input.
    expect((await service.request('GET', `/v1/audit?since=${encodeURIComponent('0001-01-01T00:00:00+05:00')}`)).status).toBe(400);
  });

  it('OPTIONS answers 204 with the allowed methods; an unknown path stays 404 whatever the method', async () => {
    const options = await service.request('OPTIONS', `/v1/tenants/${randomUUID()}`);
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, PATCH');
    expect((await rawRequest('TRACE', '/v1/nothing-here')).status).toBe(404);
  });

  it("OPTIONS of a path two templates match answers the most literal one's methods (/Users/.search, not /Users/{uid})", async () => {
    const options = await service.request('OPTIONS', `/scim/v2/directories/${randomUUID()}/Users/.search`);
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST');
    expect((await service.request('OPTIONS', `/scim/v2/directories/${randomUUID()}/Users/${randomUUID()}`)).headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH, PUT');
  });

  it('a 405 names the methods the path allows in an Allow header', async () => {
    const res = await service.request('PUT', '/v1/tenants', { slug: 'abc', name: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toMatch(/\bPOST\b/);
    const del = await service.request('DELETE', `/v1/tenants/${randomUUID()}`);
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toMatch(/\bGET\b/);
  });

  it('a NUL character in a body string answers 400, never 500', async () => {
    expectErrorBody(await service.request('POST', '/v1/tenants', { slug: uniqueSlug('nul'), name: 'a\u0000b' }), 400, 'invalid_input');
    expectErrorBody(await service.request('POST', '/v1/audit', { action: 'x.y', metadata: { note: 'a\u0000b' } }), 400, 'invalid_input');
  });

  it('a NUL character in a query string answers 400, never 500, in a value or a name, also where the operation takes no query', async () => {
    expectErrorBody(await service.request('GET', '/v1/audit?actor_id=a%00b'), 400, 'invalid_input');
    expectErrorBody(await service.request('GET', '/v1/audit?a%00b=1'), 400, 'invalid_input');
    expectErrorBody(await service.request('GET', '/v1/catalog?note=a%00b'), 400, 'invalid_input');
    expect((await service.request('GET', '/v1/catalog?note=a%2500b')).status).toBe(200);
  });

  it('a body nested thousands of levels deep answers 400, never 500, while ordinary nesting is accepted', async () => {
    const nested = (depth: number) => `{"action":"test.deep","metadata":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    expectErrorBody(await service.request('POST', '/v1/audit', nested(5000)), 400, 'invalid_input');
    expect((await service.request('POST', '/v1/audit', nested(30))).status).toBe(201);
  });

  it('a date the database cannot store answers 400, never 500', async () => {
    const created = await service.request('POST', '/v1/tenants', { slug: uniqueSlug('yr'), name: 'Year zero' });
    expect(created.status).toBe(201);
    const res = await service.request('POST', `/v1/tenants/${created.body.tenant.id}/activate`, { contract_start: '0000-01-01' });
    expectErrorBody(res, 400, 'invalid_input');
    expectErrorBody(await service.request('GET', '/v1/audit?since=0000-01-01T00:00:00Z'), 400, 'invalid_input');
  });

  it('every error the API answers carries the Error body without stack traces', async () => {
    const tenant = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('err'), name: 'Err' })).body.tenant;
    const cases: [Promise<TestResponse>, number][] = [
      [service.request('GET', `/v1/tenants/${randomUUID()}`), 404],
      [service.request('GET', '/v1/tenants/not-a-uuid'), 400],
      [service.request('POST', '/v1/tenants', { slug: tenant.slug, name: 'again' }), 409],
      [service.request('POST', '/v1/tenants', '{oops'), 400],
      [service.request('POST', '/v1/tenants', 'x', { 'content-type': 'text/csv' }), 415],
      [service.request('PATCH', '/v1/tenants'), 405],
      [service.request('GET', '/v1/audit?limit=0'), 400],
      [service.request('POST', '/v1/internal/idp/claims', {}), 400],
      [service.request('DELETE', `/v1/api-keys/${randomUUID()}`), 404],
    ];
    for (const [pending, status] of cases) expectErrorBody(await pending, status);
  });
});

describe('health and readiness', () => {
  it('GET /healthz answers 200 with a status string', async () => {
    const res = await service.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(typeof res.body.status).toBe('string');
  });

  it('GET /readyz answers 200 when the store is reachable', async () => {
    const res = await service.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(typeof res.body.status).toBe('string');
  });

  it('GET /readyz answers 503 with the Error body when the store is unreachable', async () => {
    // The real store check against a database of its own, which then disappears under the running service.
    const url = new URL(inject('databaseUrl'));
    const doomedName = `readyz_${process.pid}_${Date.now()}`;
    url.pathname = `/${doomedName}`;
    const doomed = await openOrm(url.toString(), 1); // MikroORM creates the missing database on init
    const watched = await startTestService({ READINESS_CACHE_MS: 0 }, { readiness: () => runChecks({ store: storeCheck(doomed) }, 2000) });
    try {
      expect((await watched.request('GET', '/readyz')).status).toBe(200);
      await service.orm.em.fork().execute(`drop database "${doomedName}" with (force)`);
      const res = await watched.request('GET', '/readyz');
      expectErrorBody(res, 503, 'unavailable');
      // Public: down, and nothing of the driver's error text (database names, hosts).
      expect(res.body.checks.store).toEqual({ status: 'down', message: 'unreachable' });
      expect(JSON.stringify(res.body)).not.toContain(doomedName);
      // Liveness does not depend on the store.
      expect((await watched.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await watched.close();
      await doomed.close(true).catch(() => {});
    }
  });
});

/** node:http, since fetch refuses methods such as TRACE. */
function rawRequest(method: string, path: string): Promise<{ status: number; allow: string | undefined; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(`${service.baseUrl}${path}`, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolvePromise({ status: res.statusCode!, allow: res.headers.allow, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
