import { describe, expect, it } from 'vitest';
import { claimsOfSnapshot, resolveClaims } from '../../../domain/claims/resolveClaims.ts';
import { isEntitlementCurrent } from '../../../domain/entitlements/entitlementRules.ts';
import { RegistryCache } from '../../../domain/registryCache.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('isEntitlementCurrent', () => {
  it('an enabled entitlement counts until its expiry, a disabled one never', () => {
    expect(isEntitlementCurrent({ enabled: true, expiresAt: null }, NOW)).toBe(true);
    expect(isEntitlementCurrent({ enabled: true, expiresAt: NOW + 1 }, NOW)).toBe(true);
    expect(isEntitlementCurrent({ enabled: true, expiresAt: NOW }, NOW)).toBe(false);
    expect(isEntitlementCurrent({ enabled: false, expiresAt: null }, NOW)).toBe(false);
  });
});

describe('claimsOfSnapshot', () => {
  it('lists only current products, in the snapshot order, with the caller org_roles', () => {
    const claims = claimsOfSnapshot(
      {
        id: 't',
        slug: 'acme',
        plan: 'enterprise',
        status: 'active',
        entitlements: [
          { product: 'analytics', enabled: true, expiresAt: null },
          { product: 'automation', enabled: true, expiresAt: NOW - 1 },
          { product: 'sso', enabled: false, expiresAt: null },
          { product: 'api-access', enabled: true, expiresAt: NOW + 60_000 },
        ],
      },
      ['admin'],
      NOW,
    );
    expect(claims).toEqual({ tenant_id: 't', tenant_slug: 'acme', org_roles: ['admin'], products: ['analytics', 'api-access'], plan: 'enterprise', tenant_status: 'active' });
  });
});

describe('resolveClaims', () => {
  it('reads the store once, then answers from the cache by id and by slug', async () => {
    const registry = inMemoryRegistry();
    const { tenants } = registry;
    const { tenant } = await createTenant(registry, { slug: 'cached', name: 'C', kind: 'customer', plan: 'standard' }, {});
    const cache = new RegistryCache({ ttlMs: 60_000 });
    const first = await resolveClaims(tenants, { tenant_id: tenant.id }, cache);
    const bySlug = await resolveClaims(tenants, { tenant_slug: 'cached' }, cache);
    expect(first).toMatchObject({ tenant_id: tenant.id, tenant_slug: 'cached', tenant_status: 'trial', products: [], org_roles: [] });
    expect(bySlug).toEqual(first);
    expect(tenants.snapshotReads).toBe(1);
  });

  it('an unknown tenant is not_found', async () => {
    await expect(resolveClaims(inMemoryRegistry().tenants, { tenant_id: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
