import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../platform/logger.ts';
import { runChecks, storeCheck } from '../../api/readinessChecks.ts';
import { parseApiKey } from '../../domain/apiKeyFormat.ts';
import { startChangeListener, type ChangeListener } from '../../store/changeListener.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { eventually } from '../support/eventually.ts';
import { insertMember } from '../support/memberRows.ts';
import { notificationsSettled } from '../support/notificationsSettled.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

/**
 * The service with its PostgreSQL behind a proxy the test cuts: every connection of the app and of its change
 * listener goes away and new ones are refused, as when the database host stops.
 */
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let orm: Orm;
let service: TestService;
let listener: ChangeListener;
const STALE_SECONDS = 8;
/**
 * The listener's lease: the cut closes its connection, so the cache is suspended at once whatever the lease; a short
 * one would only have a busy machine's late heartbeat empty the cache between a test's reads.
 */
const LEASE_MS = 3_000;

beforeAll(async () => {
  const runtimeUrl = new URL(inject('runtimeDatabaseUrl'));
  proxy = await startTcpProxy({ host: runtimeUrl.hostname, port: Number(runtimeUrl.port) });
  const viaProxy = new URL(runtimeUrl);
  viaProxy.host = proxy.address;
  orm = await openOrm(viaProxy.toString(), 4);
  service = await startTestService(
    { CACHE_STALE_IF_ERROR_SECONDS: STALE_SECONDS, READINESS_CACHE_MS: 0 },
    { orm, readiness: () => runChecks({ store: storeCheck(orm) }, 1000) },
  );
  listener = startChangeListener({ databaseUrl: viaProxy.toString(), cache: service.deps.cache, log: createLogger('silent', 'outage'), heartbeatMs: 100, leaseMs: LEASE_MS, reconnectMs: 200 });
  await eventually(async () => service.deps.cache.active, 10_000, 'the listener live');
});
// A test that failed while the database was cut leaves it cut: the next one starts with it back.
afterEach(() => proxy.restore());
afterAll(async () => {
  await listener?.stop();
  await service?.close();
  await orm?.close(true).catch(() => {});
  await proxy?.close();
});

/**
 * Cuts the database once this replica holds what `held` asks, as `prime` cached it. A copy can be lost before the cut
 * (a heartbeat late past the listener's lease empties the cache; another file's role change forgets every
 * member's grants), and the rule under test would then have nothing to answer from: the cut is undone and the copy
 * made again, three times at most.
 */
async function cutHolding(prime: () => Promise<void>, held: () => boolean): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    await eventually(async () => service.deps.cache.active, 15_000, 'the listener live');
    await prime();
    proxy.cut();
    await eventually(async () => !service.deps.cache.active, 5_000, 'the cache suspended');
    if (held() || attempt === 3) return;
    proxy.restore();
  }
}

describe('PostgreSQL unreachable', () => {
  it('answers 503 unavailable with Retry-After on every kind of route, never 500; recent verifies and claims answer from the cache', async () => {
    const tenant = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('outage'), name: 'Outage' })).body.tenant;
    const key = (await service.request('POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'ci' })).body;
    const { cache } = service.deps;
    await cutHolding(
      async () => {
        await notificationsSettled(orm, cache);
        expect((await service.request('POST', '/v1/internal/api-keys/verify', { key: key.plaintext })).body).toMatchObject({ code: 'VALID' });
        expect((await service.request('POST', '/v1/internal/idp/claims', { tenant_id: tenant.id })).status).toBe(200);
      },
      () => cache.apiKeys.stale(parseApiKey(key.plaintext)!.prefix) !== undefined && cache.tenants.stale({ by: 'id', id: tenant.id }) !== undefined,
    );
    const requests: [string, string, unknown?][] = [
      ['GET', '/v1/tenants'],
      ['GET', `/v1/tenants/${tenant.id}`],
      ['POST', '/v1/tenants', { slug: uniqueSlug('during'), name: 'During' }],
      ['PATCH', `/v1/tenants/${tenant.id}`, { name: 'Renamed' }],
      ['POST', '/v1/audit', { action: 'outage.append' }],
      ['GET', '/v1/audit'],
      ['GET', '/v1/catalog'],
      ['POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'during' }],
      ['GET', '/readyz'],
    ];
    for (const [method, path, body] of requests) {
      const res = await service.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(503);
      expect(res.body.error, `${method} ${path}`).toBe('unavailable');
      expect(Number(res.headers.get('retry-after')), `${method} ${path}`).toBeGreaterThan(0);
    }
    // Within the bound, what this replica verified and resolved moments ago still answers.
    expect((await service.request('POST', '/v1/internal/api-keys/verify', { key: key.plaintext })).body).toMatchObject({ code: 'VALID' });
    expect((await service.request('POST', '/v1/internal/idp/claims', { tenant_id: tenant.id })).body.tenant_id).toBe(tenant.id);
    // A key or tenant it never saw cannot be judged: 503, not a guess.
    expect((await service.request('POST', '/v1/internal/idp/claims', { tenant_slug: 'never-seen-here' })).status).toBe(503);
    // Past the bound, neither does a known one.
    await new Promise((resolve) => setTimeout(resolve, STALE_SECONDS * 1000 + 200));
    const late = await service.request('POST', '/v1/internal/api-keys/verify', { key: key.plaintext });
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBeTruthy();

    proxy.restore();
    await eventually(async () => (await service.request('GET', '/v1/tenants')).status === 200, 15_000, 'the service back');
    expect((await service.request('POST', '/v1/internal/api-keys/verify', { key: key.plaintext })).body).toMatchObject({ code: 'VALID' });
  });

  it("claims with user_id answer from this replica's recent copy of the member's grants, and 503 for a user it never read", async () => {
    const tenant = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('outmem'), name: 'Outage members' })).body.tenant;
    const userId = `f:ldap:${tenant.id}`;
    await insertMember(service.orm, { tenantId: tenant.id, userId, status: 'active', roles: ['IT_ADMIN'] });
    const claims = (user: string) => service.request('POST', '/v1/internal/idp/claims', { tenant_id: tenant.id, user_id: user });
    const { cache } = service.deps;
    try {
      await cutHolding(
        async () => {
          // Cached after the insert's own notifications have come by, so none of them forgets it.
          await notificationsSettled(orm, cache);
          expect((await claims(userId)).status).toBe(200);
        },
        () => cache.grants.stale(userId) !== undefined && cache.tenants.stale({ by: 'id', id: tenant.id }) !== undefined,
      );
      const res = await claims(userId);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ tenant_id: tenant.id, org_roles: ['IT_ADMIN'], membership_status: 'active' });
      const stranger = await claims(`f:ldap:never-${tenant.id}`);
      expect(stranger.status).toBe(503);
      expect(stranger.body.error).toBe('unavailable');
    } finally {
      proxy.restore();
    }
    await eventually(async () => (await claims(userId)).status === 200 && service.deps.cache.active, 15_000, 'the service back');
  });
});
