import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestService, type TestService } from '../../support/testService.ts';
import { eventually } from '../../support/eventually.ts';

let service: TestService;
let slowService: TestService;
beforeAll(async () => {
  service = await startTestService({ AUDIT_EXPORTS_IN_FLIGHT: 2 });
  slowService = await startTestService({ AUDIT_EXPORTS_IN_FLIGHT: 1, AUDIT_STATEMENT_TIMEOUT_MS: 300 });
});
afterAll(() => Promise.all([service?.close(), slowService?.close()]));

/**
 * Makes every read of the audit log wait, deterministically: the owner holds ACCESS EXCLUSIVE on audit_events until
 * the returned function ends its transaction. Kept short: other test files' appends wait for it too.
 */
async function holdAuditLog(): Promise<() => Promise<void>> {
  const owner = new pg.Client({ connectionString: inject('databaseUrl') });
  await owner.connect();
  await owner.query('begin');
  await owner.query('lock table audit_events in access exclusive mode');
  return async () => {
    await owner.query('commit');
    await owner.end();
  };
}

/** A GET that fails the test instead of hanging it. */
const get = (base: string, path: string) => fetch(base + path, { signal: AbortSignal.timeout(10_000) });

describe('the heavy audit reads: exports and integrity checks', () => {
  it('share AUDIT_EXPORTS_IN_FLIGHT slots: while two run, a third of either kind gets 429 rate_limited with Retry-After, and runs once they end', async () => {
    const release = await holdAuditLog();
    let running: Promise<Response>[] = [];
    try {
      running = [get(service.baseUrl, '/v1/audit/export?action=limits.nothing'), get(service.baseUrl, '/v1/audit/integrity?from_id=1&to_id=1')];
      await eventually(async () => service.deps.auditReads.inFlight.held === 2, 10_000, 'both reads holding their slots');
      for (const path of ['/v1/audit/export', '/v1/audit/integrity']) {
        const refused = await get(service.baseUrl, path);
        expect(refused.status, path).toBe(429);
        expect(refused.headers.get('retry-after'), path).toBe('5');
        expect(await refused.json(), path).toMatchObject({ error: 'rate_limited', message: expect.stringContaining('Retry-After') });
      }
    } finally {
      await release();
    }
    const [exported, checked] = await Promise.all(running);
    expect(exported!.status).toBe(200);
    expect(await exported!.text()).toBe('');
    expect(checked!.status).toBe(200);
    await eventually(async () => service.deps.auditReads.inFlight.held === 0, 5_000, 'the slots given back');
    expect((await get(service.baseUrl, '/v1/audit/integrity?from_id=1&to_id=1')).status).toBe(200);
  });

  it('a statement past AUDIT_STATEMENT_TIMEOUT_MS is stopped: 503 unavailable naming the limit, not a hang, and its slot is given back', async () => {
    const release = await holdAuditLog();
    try {
      for (const path of ['/v1/audit/export', '/v1/audit/integrity']) {
        const started = Date.now();
        const stopped = await get(slowService.baseUrl, path);
        expect(stopped.status, path).toBe(503);
        expect(await stopped.json(), path).toMatchObject({ error: 'unavailable', message: expect.stringContaining('300 ms (AUDIT_STATEMENT_TIMEOUT_MS)') });
        expect(Date.now() - started, path).toBeLessThan(5_000);
      }
    } finally {
      await release();
    }
    // One slot only: the stopped reads gave theirs back.
    expect((await get(slowService.baseUrl, '/v1/audit/integrity?from_id=1&to_id=1')).status).toBe(200);
    expect((await get(slowService.baseUrl, '/v1/audit/export?action=limits.nothing')).status).toBe(200);
  });
});
