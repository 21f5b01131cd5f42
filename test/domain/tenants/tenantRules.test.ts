import { describe, expect, it } from 'vitest';
import { changeTenantStatus } from '../../../domain/tenants/changeTenantStatus.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { AppError } from '../../../domain/errors.ts';
import { InMemoryTenantRepository } from '../../support/fakes/inMemoryTenantRepository.ts';

const meta = {};
const customer = (slug: string, extra: Record<string, unknown> = {}) => ({ slug, name: 'Acme', kind: 'customer' as const, plan: 'standard', ...extra });

describe('createTenant', () => {
  it('a customer starts a 14-day trial and a demo starts as demo', async () => {
    const tenants = new InMemoryTenantRepository();
    const { tenant } = await createTenant(tenants, customer('acme'), meta);
    expect(tenant.status).toBe('trial');
    expect(tenant.trialEndsAt!.getTime() - tenant.createdAt.getTime()).toBe(14 * 24 * 3600_000);
    const demo = await createTenant(tenants, { ...customer('demo-co'), kind: 'demo' }, meta);
    expect(demo.tenant).toMatchObject({ status: 'demo', trialEndsAt: null });
  });

  it('hands provisioning to the actor with an admin e-mail (stored lower-cased), and the timeline without one', async () => {
    const tenants = new InMemoryTenantRepository();
    const withAdmin = await createTenant(tenants, customer('with-admin', { admin_email: 'Admin@Acme.Example' }), meta);
    const without = await createTenant(tenants, customer('no-admin'), meta);
    expect(withAdmin.tenant.adminEmail).toBe('admin@acme.example');
    expect(withAdmin.provisioningCommandId).toBeDefined();
    expect(without.provisioningCommandId).toBeUndefined();
    expect(without.actorCommandId).toBeDefined();
    expect(tenants.handOffs).toEqual([
      { tenantId: withAdmin.tenant.id, command: 'provision' },
      { tenantId: without.tenant.id, command: 'pushClaims' },
    ]);
  });

  it('a taken slug is a conflict', async () => {
    const tenants = new InMemoryTenantRepository();
    await createTenant(tenants, customer('taken'), meta);
    await expect(createTenant(tenants, customer('taken'), meta)).rejects.toSatisfy((e) => e instanceof AppError && e.code === 'conflict');
  });
});

describe('changeTenantStatus', () => {
  it('activate moves any state to active with the plan and contract, and queues a claims push', async () => {
    const tenants = new InMemoryTenantRepository();
    const { tenant } = await createTenant(tenants, customer('act'), meta);
    const { tenant: after, claimsPushCommandId } = await changeTenantStatus(
      tenants,
      tenant.id,
      { kind: 'activate', body: { plan: 'enterprise', contract_start: '2026-01-01', contract_end: '2026-12-31' } },
      meta,
    );
    expect(after).toMatchObject({ status: 'active', plan: 'enterprise', contractStart: '2026-01-01', contractEnd: '2026-12-31' });
    expect(claimsPushCommandId).toBeDefined();
    expect(tenants.events.at(-1)).toMatchObject({ action: 'tenant.activated', metadata: { from: 'trial', to: 'active', plan: 'enterprise' } });
  });

  it('cancel freezes at once from any state', async () => {
    const tenants = new InMemoryTenantRepository();
    const { tenant } = await createTenant(tenants, customer('frz'), meta);
    await changeTenantStatus(tenants, tenant.id, { kind: 'activate', body: {} }, meta);
    const { tenant: after } = await changeTenantStatus(tenants, tenant.id, { kind: 'cancel', body: { reason: 'churn' } }, meta);
    expect(after.status).toBe('frozen');
    expect(tenants.events.at(-1)).toMatchObject({ action: 'tenant.cancelled', metadata: { from: 'active', to: 'frozen', reason: 'churn' } });
  });

  it('a contract_end before the stored contract_start is invalid and changes nothing', async () => {
    const tenants = new InMemoryTenantRepository();
    const { tenant } = await createTenant(tenants, customer('contract'), meta);
    await changeTenantStatus(tenants, tenant.id, { kind: 'activate', body: { contract_start: '2026-06-01' } }, meta);
    const events = tenants.events.length;
    await expect(changeTenantStatus(tenants, tenant.id, { kind: 'activate', body: { contract_end: '2026-05-31' } }, meta)).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(tenants.tenants.get(tenant.id)!.contractEnd).toBeNull();
    expect(tenants.events).toHaveLength(events);
  });

  it('an unknown tenant is not_found', async () => {
    const tenants = new InMemoryTenantRepository();
    await expect(changeTenantStatus(tenants, '00000000-0000-4000-8000-000000000000', { kind: 'cancel', body: {} }, meta)).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
