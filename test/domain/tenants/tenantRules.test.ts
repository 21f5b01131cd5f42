import { describe, expect, it } from 'vitest';
import { changeTenantStatus } from '../../../domain/tenants/changeTenantStatus.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { AppError } from '../../../domain/errors.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const meta = {};
const customer = (slug: string, extra: Record<string, unknown> = {}) => ({ slug, name: 'Acme', kind: 'customer' as const, plan: 'standard', ...extra });

describe('createTenant', () => {
  it('a customer starts a 14-day trial and a demo starts as demo', async () => {
    const registry = inMemoryRegistry();
    const { tenants } = registry;
    const { tenant } = await createTenant(registry, customer('acme'), meta);
    expect(tenant.status).toBe('trial');
    expect(tenant.trialEndsAt!.getTime() - tenant.createdAt.getTime()).toBe(14 * 24 * 3600_000);
    const demo = await createTenant(registry, { ...customer('demo-co'), kind: 'demo' }, meta);
    expect(demo.tenant).toMatchObject({ status: 'demo', trialEndsAt: null });
  });

  it('hands provisioning to the actor with an admin e-mail (stored lower-cased), and the timeline without one', async () => {
    const registry = inMemoryRegistry();
    const { tenants } = registry;
    const withAdmin = await createTenant(registry, customer('with-admin', { admin_email: 'Admin@Acme.Example' }), meta);
    const without = await createTenant(registry, customer('no-admin'), meta);
    expect(withAdmin.tenant.adminEmail).toBe('admin@acme.example');
    expect(tenants.outbox).toEqual([
      { id: 1, tenantId: withAdmin.tenant.id, command: { kind: 'provision' } },
      { id: 2, tenantId: without.tenant.id, command: { kind: 'pushClaims' } },
    ]);
  });

  it('a taken slug is a conflict', async () => {
    const registry = inMemoryRegistry();
    const { tenants } = registry;
    await createTenant(registry, customer('taken'), meta);
    await expect(createTenant(registry, customer('taken'), meta)).rejects.toSatisfy((e) => e instanceof AppError && e.code === 'conflict');
  });
});

describe('changeTenantStatus', () => {
  it('activate moves any state to active with the plan and contract, and queues a claims push', async () => {
    const registry = inMemoryRegistry();
    const { tenants } = registry;
    const { tenant } = await createTenant(registry, customer('act'), meta);
    const after = await changeTenantStatus(registry,
      tenant.id,
      { kind: 'activate', body: { plan: 'enterprise', contract_start: '2026-01-01', contract_end: '2026-12-31' } },
      meta,
    );
    expect(after).toMatchObject({ status: 'active', plan: 'enterprise', contractStart: '2026-01-01', contractEnd: '2026-12-31' });
    expect(tenants.outbox.at(-1)).toMatchObject({ tenantId: tenant.id, command: { kind: 'pushClaims' } });
    expect(tenants.events.at(-1)).toMatchObject({ action: 'tenant.activated', metadata: { from: 'trial', to: 'active', plan: 'enterprise' } });
  });

  it('cancel freezes at once from any state', async () => {
    const registry = inMemoryRegistry();
    const { tenants } = registry;
    const { tenant } = await createTenant(registry, customer('frz'), meta);
    await changeTenantStatus(registry, tenant.id, { kind: 'activate', body: {} }, meta);
    const after = await changeTenantStatus(registry, tenant.id, { kind: 'cancel', body: { reason: 'churn' } }, meta);
    expect(after.status).toBe('frozen');
    expect(tenants.events.at(-1)).toMatchObject({ action: 'tenant.cancelled', metadata: { from: 'active', to: 'frozen', reason: 'churn' } });
  });

  it('a contract_end before the stored contract_start is invalid and changes nothing', async () => {
    const registry = inMemoryRegistry();
    const { tenants } = registry;
    const { tenant } = await createTenant(registry, customer('contract'), meta);
    await changeTenantStatus(registry, tenant.id, { kind: 'activate', body: { contract_start: '2026-06-01' } }, meta);
    const events = tenants.events.length;
    await expect(changeTenantStatus(registry, tenant.id, { kind: 'activate', body: { contract_end: '2026-05-31' } }, meta)).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(tenants.tenants.get(tenant.id)!.contractEnd).toBeNull();
    expect(tenants.events).toHaveLength(events);
  });

  it('an unknown tenant is not_found', async () => {
    const registry = inMemoryRegistry();
    const { tenants } = registry;
    await expect(changeTenantStatus(registry, '00000000-0000-4000-8000-000000000000', { kind: 'cancel', body: {} }, meta)).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
