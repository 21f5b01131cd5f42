import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitForHttp } from '../../bench/processes.ts';
import { freePort } from '../../platform/freePort.ts';
import { startTestService, type TestService } from '../support/testService.ts';

// The bench's reference rows claim to do one part of the service's work and nothing else: the audit page's read has
// to give the service's own page, and the framed JSON floor the service's access line.
let service: TestService;
let reference: ChildProcess;
let url: string;
const accessLines: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  reference = spawn(process.execPath, ['bench/referenceKoa.ts'], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: inject('runtimeDatabaseUrl') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  reference.stdout!.on('data', (chunk: Buffer) => accessLines.push(...chunk.toString().split('\n').filter(Boolean)));
  await waitForHttp(`${url}/`, 10_000, () => reference.exitCode === null);
});
afterAll(async () => {
  reference.kill('SIGTERM');
  await service.close();
});

describe('bench/referenceKoa.ts', () => {
  it("answers a tenant's first audit page with the same bytes as GET /v1/audit?tenant_id=", async () => {
    const tenantId = randomUUID();
    for (let i = 0; i < 52; i += 1) {
      const res = await service.request('POST', '/v1/audit', { action: 'report.exported', tenant_id: tenantId, actor_id: `actor-${i}`, actor_type: 'user' });
      expect(res.status).toBe(201);
    }
    const servicePage = await (await fetch(`${service.baseUrl}/v1/audit?tenant_id=${tenantId}`)).text();
    const referencePage = await (await fetch(`${url}/reference/postgres-page?tenant_id=${tenantId}`)).text();
    expect(JSON.parse(referencePage).items).toHaveLength(50);
    expect(referencePage).toBe(servicePage);
  });

  it('answers the JSON-body floor inside the access line: one line a request, as the service writes it', async () => {
    const requestId = `reference-${randomUUID()}`;
    const res = await fetch(`${url}/reference/json-framed`, { method: 'POST', headers: { 'x-request-id': requestId }, body: '{"key":"k"}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    expect(await res.json()).toMatchObject({ valid: true });
    await expect.poll(() => accessLines.find((line) => line.includes(requestId))).toBeDefined();
    expect(JSON.parse(accessLines.find((line) => line.includes(requestId))!)).toMatchObject({
      level: 30,
      name: 'tenant-registry-api',
      requestId,
      method: 'POST',
      path: '/reference/json-framed',
      status: 200,
      msg: 'request',
    });
  });
});
