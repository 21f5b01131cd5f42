import { describe, expect, inject, it } from 'vitest';
import { TenantMemberList } from '../../domain/members/tenantMemberList.ts';
import { RegistryCache } from '../../domain/reads/registryCache.ts';
import { createLogger } from '../../platform/logger.ts';
import { startChangeListener } from '../../store/changeListener.ts';
import { openOrm } from '../../store/orm.ts';
import { eventually } from '../support/eventually.ts';
import { insertMember } from '../support/memberRows.ts';
import { notificationsSettled } from '../support/notificationsSettled.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';

const key = { id: 'k', tenantId: 't', product: null, scopes: [], keyHash: Buffer.alloc(32), revoked: false, expiresAt: null, lastUsedAt: 0 };

describe('the cache change listener', () => {
  it('on a half-open connection stops the cache within its liveness lease, then reconnects and resumes it', async () => {
    const databaseUrl = new URL(inject('databaseUrl'));
    const proxy = await startTcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port) });
    const viaProxy = new URL(databaseUrl);
    viaProxy.host = proxy.address;
    const cache = new RegistryCache({ ttlMs: 10 * 60_000 });
    const listener = startChangeListener({
      databaseUrl: viaProxy.toString(),
      cache,
      log: createLogger('silent', 'test-listener'),
      heartbeatMs: 100,
      leaseMs: 500,
      reconnectMs: 100,
    });
    try {
      await listener.ready;
      cache.apiKeys.put('trk_a', key, cache.generation());
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(cache.apiKeys.get('trk_a')).toBeDefined();

      // The listener's connection now silently carries nothing: no error, no notification, no heartbeat answer.
      proxy.stall();
      const stalledAt = Date.now();
      await eventually(async () => cache.apiKeys.get('trk_a') === undefined, 5_000, 'the cache to stop serving');
      // Lease 500 ms after the last answered heartbeat (sent at most 100 ms before the stall), plus scheduling slack.
      expect(Date.now() - stalledAt).toBeLessThan(1_500);

      // A new connection through the proxy works: the listener reconnects and the cache serves again, empty.
      await eventually(async () => cache.active, 5_000, 'the cache to resume');
      expect(cache.apiKeys.get('trk_a')).toBeUndefined();
      cache.apiKeys.put('trk_a', key, cache.generation());
      expect(cache.apiKeys.get('trk_a')).toBeDefined();
    } finally {
      await listener.stop();
      await proxy.close();
    }
  });

  it('while the heartbeats are answered the cache keeps serving past the lease', async () => {
    const cache = new RegistryCache({ ttlMs: 10 * 60_000 });
    const listener = startChangeListener({ databaseUrl: inject('databaseUrl'), cache, log: createLogger('silent', 'test-listener'), heartbeatMs: 100, leaseMs: 500 });
    try {
      await listener.ready;
      cache.apiKeys.put('trk_b', key, cache.generation());
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(cache.apiKeys.get('trk_b')).toBeDefined();
    } finally {
      await listener.stop();
    }
  });

  it("a member's change forgets that user's grants and that tenant's member list only; a role's change every user's grants and every list, nothing else", async () => {
    const orm = await openOrm(inject('databaseUrl'), 1);
    const cache = new RegistryCache({ ttlMs: 10 * 60_000 });
    const listener = startChangeListener({ databaseUrl: inject('databaseUrl'), cache, log: createLogger('silent', 'test-listener') });
    try {
      await listener.ready;
      const [tenant] = await orm.em.fork().execute<{ id: string }[]>(
        `insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at)
         values (gen_random_uuid(), 'listener-' || substr(md5(random()::text), 1, 12), 'L', 'active', 'customer', 'starter', now(), now()) returning id`,
      );
      const tenantId = tenant!.id;
      const grant = [{ tenantId, status: 'active' as const, roles: ['IT_ADMIN'], permissions: [], breakGlass: false }];
      const otherTenant = '00000000-0000-4000-8000-00000000000e';
      const fill = () => {
        for (const user of ['listener-changed', 'listener-other', 'listener-sentinel']) cache.grants.put(user, grant, cache.generation());
        for (const id of [tenantId, otherTenant]) cache.memberLists.put(id, new TenantMemberList([]), cache.generation());
        cache.apiKeys.put('trk_c', key, cache.generation());
      };
      /**
       * Makes the change until what it must keep survives it. Other test files share the database, and a role changed
       * there forgets every member's grants and list meanwhile: a try that lost the sentinel too is made again.
       */
      const forgetsOnly = async (change: string, forgotten: () => boolean, kept: () => boolean, what: string) => {
        for (let attempt = 1; attempt <= 3; attempt += 1) {
          await notificationsSettled(orm, cache);
          fill();
          await orm.em.fork().execute(change, [tenantId]);
          await eventually(async () => forgotten(), 5_000, what);
          if (kept() || cache.grants.get('listener-sentinel') !== undefined) break;
        }
        expect(kept(), what).toBe(true);
      };
      await insertMember(orm, { tenantId, userId: 'listener-changed', status: 'active', roles: ['IT_ADMIN'] });
      await forgetsOnly(
        `update members set updated_at = now() where tenant_id = ? and user_id = 'listener-changed'`,
        () => cache.grants.get('listener-changed') === undefined && cache.memberLists.get(tenantId) === undefined,
        () => cache.grants.get('listener-other') !== undefined && cache.memberLists.get(otherTenant) !== undefined && cache.apiKeys.get('trk_c') !== undefined,
        "a member's change: that user's grants and that tenant's list",
      );
      await forgetsOnly(
        `update member_roles set role_id = role_id where tenant_id = ? and user_id = 'listener-changed'`,
        () => cache.memberLists.get(tenantId) === undefined,
        () => cache.grants.get('listener-other') !== undefined && cache.memberLists.get(otherTenant) !== undefined,
        "a change of a member's roles: that tenant's list",
      );

      await notificationsSettled(orm, cache);
      fill();
      await orm.em.fork().execute(`update roles set name = name where slug = 'MEMBER' and tenant_id is null`);
      await eventually(async () => cache.grants.get('listener-other') === undefined, 5_000, "every user's grants forgotten");
      expect(cache.grants.get('listener-changed')).toBeUndefined();
      expect(cache.memberLists.get(tenantId)).toBeUndefined();
      expect(cache.memberLists.get(otherTenant)).toBeUndefined();
      expect(cache.apiKeys.get('trk_c')).toBeDefined();
    } finally {
      await listener.stop();
      await orm.close();
    }
  });

  it("a tenant's SSO connection made, changed or gone forgets that tenant's snapshot; a product's clients changed, the products' clients", async () => {
    const orm = await openOrm(inject('databaseUrl'), 1);
    const cache = new RegistryCache({ ttlMs: 10 * 60_000 });
    const listener = startChangeListener({ databaseUrl: inject('databaseUrl'), cache, log: createLogger('silent', 'test-listener') });
    const db = () => orm.em.fork();
    const client = `listener-${crypto.randomUUID()}`;
    try {
      await listener.ready;
      const [tenant] = await db().execute<{ id: string; slug: string }[]>(
        `insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at)
         values (gen_random_uuid(), 'listener-' || substr(md5(random()::text), 1, 12), 'L', 'active', 'customer', 'starter', now(), now()) returning id, slug`,
      );
      const snapshot = { id: tenant!.id, slug: tenant!.slug, plan: 'starter', status: 'active', entitlements: [], signIn: { require_sso: false, mfa: 'off' as const }, ssoAliases: [] };
      const connection = crypto.randomUUID();
      const changes = [
        `insert into sso_connections (id, tenant_id, issuer, client_id, client_secret_sealed, endpoints, state, idp_alias, created_at, updated_at)
         values ('${connection}', ?, 'https://idp.listener.test', 'registry', 'sealed', '{}', 'active', 'sso-${connection}', now(), now())`,
        `update sso_connections set state = 'inactive' where tenant_id = ?`,
        `delete from sso_connections where tenant_id = ?`,
      ];
      for (const change of changes) {
        await notificationsSettled(orm, cache);
        cache.tenants.put(snapshot, cache.generation());
        await db().execute(change, [tenant!.id]);
        await eventually(async () => cache.tenants.get(tenant!.id) === undefined, 5_000, change);
      }

      for (const change of [`insert into product_clients (client_id, product) values (?, 'data-export')`, `delete from product_clients where client_id = ?`]) {
        await notificationsSettled(orm, cache);
        cache.productClients.put(new Map(), cache.generation());
        await db().execute(change, [client]);
        await eventually(async () => cache.productClients.get() === undefined, 5_000, change);
      }
    } finally {
      await db().execute(`delete from product_clients where client_id = ?`, [client]);
      await listener.stop();
      await orm.close();
    }
  });
});
