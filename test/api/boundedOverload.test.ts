import { request, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { eventually } from '../support/eventually.ts';
import { spawnApi, type ApiProcess } from '../support/spawnApi.ts';

/**
 * The real API process with two slots and a queue of three, a slot never given back by time: two audit appends whose
 * bodies the test holds back keep both slots, so what the queue holds and what it refuses is the test's to decide.
 */
const SLOTS = 2;
const QUEUED = 3;
let api: ApiProcess;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  api = await spawnApi({
    HTTP_MAX_REQUESTS_IN_FLIGHT: String(SLOTS),
    HTTP_MAX_QUEUED: String(QUEUED),
    HTTP_SLOT_RELEASE_MS: '600000',
    METRICS_PORT: String(metricsPort),
  });
});
afterAll(() => {
  api?.child.kill('SIGTERM');
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A POST whose body is sent up to `sent` bytes; `finish()` sends the rest, and `answer` settles with the response. */
function heldPost(path: string, body: string, sent: number): { finish: () => void; answer: Promise<Answer> } {
  let req!: ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = request(`${api.base}${path}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, sent));
  return { finish: () => req.end(body.slice(sent)), answer };
}

/** A GET on a connection of its own (fetch's pool would line requests up in the client instead). */
function get(path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${api.base}${path}`, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function gauge(name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

describe('bounded overload', () => {
  it('past HTTP_MAX_QUEUED waiting requests the API answers 503 unavailable with Retry-After at once; the admitted and the queued still succeed', async () => {
    const event = JSON.stringify({ action: 'overload.test', actor_id: 'overload-test', metadata: { pad: 'x'.repeat(200) } });
    const held = Array.from({ length: SLOTS }, () => heldPost('/v1/audit', event, 20));
    await eventually(async () => (await gauge('tenant_registry_http_requests_running')) === SLOTS, 10_000, 'both slots held');

    const queued: Promise<Answer>[] = [];
    for (let i = 0; i < QUEUED; i += 1) queued.push(get('/v1/tenants?limit=1'));
    await eventually(async () => (await gauge('tenant_registry_http_requests_waiting')) === QUEUED, 10_000, 'the queue full');

    const refused = await Promise.all([get('/v1/tenants?limit=1'), get('/v1/audit?limit=1'), get('/v1/catalog'), get('/nowhere')]);
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'unavailable' });
    }
    // Beneath the SCIM endpoint the refusal is SCIM's error body, as every failure there.
    const scim = await get('/scim/v2/directories/00000000-0000-4000-8000-000000000001/Users');
    expect(scim.status).toBe(503);
    expect(scim.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(JSON.parse(scim.body)).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '503' });
    // The probes are never queued nor refused: the process is alive and ready, only busy.
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
    expect(await gauge('tenant_registry_http_requests_waiting')).toBe(QUEUED);

    for (const { finish } of held) finish();
    const admitted = await Promise.all(held.map((h) => h.answer));
    expect(admitted.map((a) => a.status)).toEqual([201, 201]);
    const served = await Promise.all(queued);
    expect(served.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(JSON.parse(served[0]!.body)).toHaveProperty('items');
  });

  it('under a burst far past the slots and the queue every answer is a success or that 503, never another 5xx', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => get(i % 2 === 0 ? '/v1/tenants?limit=5' : '/v1/audit?limit=5')));
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    for (const answer of answers.filter((a) => a.status === 503)) expect(answer.headers['retry-after']).toBe('1');
    // The API is as it was once the burst is answered.
    expect((await get('/v1/tenants?limit=1')).status).toBe(200);
  });

  it('the OpenAPI document declares the 503 for every operation but the probes', async () => {
    const document = JSON.parse((await get('/openapi.json')).body) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (path === '/healthz') expect(operation.responses['503'], `${method} ${path}`).toBeUndefined();
        else expect(Object.keys(operation.responses), `${method} ${path}`).toContain('503');
      }
    }
  });
});
