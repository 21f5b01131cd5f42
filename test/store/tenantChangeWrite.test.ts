import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import { PostgresTenantRepository } from '../../store/postgresTenantRepository.ts';
import { tenantChangeWrite } from '../../store/tenantChangeWrite.ts';
import { nativePool } from '../../store/nativePool.ts';
import { planTenantUpdate } from '../../domain/tenants/updateTenant.ts';
import type { TenantChange } from '../../domain/tenants/tenantRepository.ts';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

let service: TestService;
let pool: pg.Pool;
beforeAll(async () => {
  service = await startTestService();
  pool = (await nativePool(service.orm)) as unknown as pg.Pool;
});
afterAll(() => service.close());

const createTenant = async () => (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('cw'), name: 'Before', kind: 'demo' })).body.tenant as { id: string; slug: string };
const versionOf = async (id: string) => (await pool.query<{ v: string }>('select xmin::text as v from tenants where id = $1', [id])).rows[0]!.v;
const meta = { actorId: 'test', actorType: 'service' as const };

function everyKindOfWrite(id: string, slug: string): TenantChange<null> {
  const now = new Date();
  return {
    update: { name: 'After', updatedAt: now },
    putEntitlements: [{ tenantId: id, product: 'analytics', enabled: true, config: { seats: 3 }, expiresAt: null, expiryAnnouncedFor: null, createdAt: now, updatedAt: now }],
    events: [{ action: 'tenant.updated', tenant_id: id, target_id: id, target_type: 'tenant', target_name: slug, metadata: { changes: { name: { old: 'Before', new: 'After' } } } }],
    pushClaims: true,
    result: null,
  };
}

describe('tenantChangeWrite: a decided change in one statement, guarded by the version it was decided on', () => {
  it('on a version another change has since replaced it writes nothing: no field, entitlement, event or hand-off', async () => {
    const tenant = await createTenant();
    const decidedOn = await versionOf(tenant.id);
    await pool.query("update tenants set sales_owner = 'someone-else' where id = $1", [tenant.id]);
    const stale = tenantChangeWrite(tenant.id, decidedOn, everyKindOfWrite(tenant.id, tenant.slug), { kind: 'pushClaims' }, meta);
    expect((await pool.query(stale)).rows[0]).toEqual({ written: 0, command_id: null });
    const written = async () => ({
      name: (await pool.query('select name from tenants where id = $1', [tenant.id])).rows[0].name,
      products: (await pool.query('select product, config from tenant_products where tenant_id = $1', [tenant.id])).rows,
      events: Number((await pool.query("select count(*) from audit_events where tenant_id = $1 and action = 'tenant.updated'", [tenant.id])).rows[0].count),
      handOffs: Number((await pool.query("select count(*) from tenant_actor_outbox where tenant_id = $1 and command = 'pushClaims'", [tenant.id])).rows[0].count),
    });
    const before = await written();
    expect(before).toMatchObject({ name: 'Before', products: [], events: 0 });

    const current = tenantChangeWrite(tenant.id, await versionOf(tenant.id), everyKindOfWrite(tenant.id, tenant.slug), { kind: 'pushClaims' }, meta);
    const [row] = (await pool.query(current)).rows;
    expect(row.written).toBe(1);
    expect(Number(row.command_id)).toBeGreaterThan(0);
    expect(await written()).toEqual({ name: 'After', products: [{ product: 'analytics', config: { seats: 3 } }], events: 1, handOffs: before.handOffs + 1 });
  });

  it('a change without fields still gives the row a new version, so a change decided before it loses', async () => {
    const tenant = await createTenant();
    const decidedOn = await versionOf(tenant.id);
    const entitlementOnly = { ...everyKindOfWrite(tenant.id, tenant.slug), update: undefined, events: [], pushClaims: false };
    expect((await pool.query(tenantChangeWrite(tenant.id, decidedOn, entitlementOnly, undefined, meta))).rows[0].written).toBe(1);
    expect(await versionOf(tenant.id)).not.toBe(decidedOn);
    expect((await pool.query(tenantChangeWrite(tenant.id, decidedOn, entitlementOnly, undefined, meta))).rows[0].written).toBe(0);
  });
});

describe('PostgresTenantRepository.change', () => {
  it('is two statements when no one else writes the tenant; one that lost its race is decided again under the row lock, on the state that won', async () => {
    const tenant = await createTenant();
    const repository = new PostgresTenantRepository(service.orm);
    let changed: Awaited<ReturnType<typeof repository.change<unknown>>>;
    const decide = vi.fn((locked: Parameters<typeof planTenantUpdate>[0], now: Date) => planTenantUpdate(locked, { sales_owner: `owner-${decide.mock.calls.length}` }, now));
    const query = pool.query.bind(pool);
    const sent = vi.spyOn(pool, 'query');
    try {
      await repository.change(tenant.id, meta, decide);
      expect(sent.mock.calls.map(([statement]) => (statement as unknown as { name: string }).name)).toEqual(['tenant_for_change', expect.stringMatching(/^tenant_change_/)]);
      expect(decide).toHaveBeenCalledTimes(1);

      // Another writer gets in between this change's read and its write.
      let raced = false;
      sent.mockImplementation((async (statement: { name?: string }, values?: unknown[]) => {
        if (!raced && statement.name?.startsWith('tenant_change_')) {
          raced = true;
          await query("update tenants set sales_owner = 'the-racer' where id = $1", [tenant.id]);
        }
        return query(statement as pg.QueryConfig, values);
      }) as never);
      changed = await repository.change(tenant.id, meta, decide);
      expect(decide).toHaveBeenCalledTimes(3);
    } finally {
      sent.mockRestore();
    }
    const [event] = (await service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=tenant.updated`)).body.items;
    expect(event.metadata.changes.sales_owner).toEqual({ old: 'the-racer', new: (changed!.result as { salesOwner: string }).salesOwner });
  });
});
