import { describe, expect, it } from 'vitest';
import type { CatalogProductRecord } from '../../../domain/catalog/catalogProductRecord.ts';
import type { CatalogRepository } from '../../../domain/catalog/catalogRepository.ts';
import { startTrial } from '../../../domain/catalog/startTrial.ts';
import { changeTenantStatus } from '../../../domain/tenants/changeTenantStatus.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { InMemoryTenantRepository } from '../../support/fakes/inMemoryTenantRepository.ts';

const product = (key: string, supportsTrial = true): CatalogProductRecord => ({
  key, name: key, description: '', plansRequired: [], demoUrl: null, supportsTrial, position: 0,
});
const catalog: CatalogRepository = {
  list: async () => [product('analytics'), product('sso', false)],
  find: async (key) => [product('analytics'), product('sso', false)].find((p) => p.key === key),
};
const meta = {};

async function tenantIn(status: 'trial' | 'frozen' = 'trial') {
  const tenants = new InMemoryTenantRepository();
  const { tenant } = await createTenant(tenants, { slug: 'trialist', name: 'T', kind: 'customer', plan: 'standard' }, meta);
  if (status === 'frozen') await changeTenantStatus(tenants, tenant.id, { kind: 'cancel', body: {} }, meta);
  return { tenants, tenantId: tenant.id };
}

describe('startTrial', () => {
  it('grants an enabled trial entitlement expiring in 14 days and queues a claims push', async () => {
    const { tenants, tenantId } = await tenantIn();
    const before = Date.now();
    const { entitlement, claimsPushCommandId } = await startTrial(tenants, catalog, { tenant_id: tenantId, product: 'analytics' }, meta);
    expect(entitlement).toMatchObject({ product: 'analytics', enabled: true, config: { trial: true } });
    expect(entitlement.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 14 * 24 * 3600_000);
    expect(claimsPushCommandId).toBeDefined();
    expect(tenants.events.at(-1)).toMatchObject({ action: 'entitlement.trial_started', product: 'analytics' });
  });

  it('one trial per tenant and product: a second request is a conflict', async () => {
    const { tenants, tenantId } = await tenantIn();
    await startTrial(tenants, catalog, { tenant_id: tenantId, product: 'analytics' }, meta);
    await expect(startTrial(tenants, catalog, { tenant_id: tenantId, product: 'analytics' }, meta)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('a frozen tenant cannot start a trial', async () => {
    const { tenants, tenantId } = await tenantIn('frozen');
    await expect(startTrial(tenants, catalog, { tenant_id: tenantId, product: 'analytics' }, meta)).rejects.toMatchObject({ code: 'conflict' });
    expect(tenants.entitlements).toHaveLength(0);
  });

  it('a product without a trial is invalid input and an unknown product not_found', async () => {
    const { tenants, tenantId } = await tenantIn();
    await expect(startTrial(tenants, catalog, { tenant_id: tenantId, product: 'sso' }, meta)).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(startTrial(tenants, catalog, { tenant_id: tenantId, product: 'nope' }, meta)).rejects.toMatchObject({ code: 'not_found' });
  });
});
