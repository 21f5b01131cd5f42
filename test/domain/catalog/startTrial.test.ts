import { describe, expect, it } from 'vitest';
import { startTrial } from '../../../domain/catalog/startTrial.ts';
import { changeTenantStatus } from '../../../domain/tenants/changeTenantStatus.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';
const meta = {};

async function tenantIn(status: 'trial' | 'frozen' = 'trial') {
  const registry = inMemoryRegistry();
  const { tenant } = await createTenant(registry, { slug: 'trialist', name: 'T', kind: 'customer', plan: 'standard' }, meta);
  if (status === 'frozen') await changeTenantStatus(registry, tenant.id, { kind: 'cancel', body: {} }, meta);
  return { registry, tenants: registry.tenants, tenantId: tenant.id };
}

describe('startTrial', () => {
  it('grants an enabled trial entitlement expiring in 14 days and queues a claims push', async () => {
    const { registry, tenants, tenantId } = await tenantIn();
    const before = Date.now();
    const entitlement = await startTrial(registry, { tenant_id: tenantId, product: 'analytics' }, meta);
    expect(entitlement).toMatchObject({ product: 'analytics', enabled: true, config: { trial: true } });
    expect(entitlement.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 14 * 24 * 3600_000);
    expect(tenants.outbox.at(-1)).toMatchObject({ tenantId, command: { kind: 'pushClaims' } });
    expect(tenants.events.at(-1)).toMatchObject({ action: 'entitlement.trial_started', product: 'analytics' });
  });

  it('one trial per tenant and product: a second request is a conflict', async () => {
    const { registry, tenantId } = await tenantIn();
    await startTrial(registry, { tenant_id: tenantId, product: 'analytics' }, meta);
    await expect(startTrial(registry, { tenant_id: tenantId, product: 'analytics' }, meta)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('a frozen tenant cannot start a trial', async () => {
    const { registry, tenants, tenantId } = await tenantIn('frozen');
    await expect(startTrial(registry, { tenant_id: tenantId, product: 'analytics' }, meta)).rejects.toMatchObject({ code: 'conflict' });
    expect(tenants.entitlements).toHaveLength(0);
  });

  it('a product without a trial is invalid input and an unknown product not_found', async () => {
    const { registry, tenantId } = await tenantIn();
    await expect(startTrial(registry, { tenant_id: tenantId, product: 'sso' }, meta)).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(startTrial(registry, { tenant_id: tenantId, product: 'nope' }, meta)).rejects.toMatchObject({ code: 'not_found' });
  });
});
