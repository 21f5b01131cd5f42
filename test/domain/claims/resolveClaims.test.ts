import { describe, expect, it } from 'vitest';
import { claimsOfSnapshot, resolveClaims } from '../../../domain/claims/resolveClaims.ts';
import { isEntitlementCurrent } from '../../../domain/entitlements/entitlementRules.ts';
import { RegistryCache } from '../../../domain/reads/registryCache.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { boundTo } from '../../../domain/access/tenantReach.ts';
import { fakeCatalog, inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';
import { memberRecord, UserMemberships } from '../../support/fakes/userMemberships.ts';

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
        signIn: { require_sso: false, mfa: 'off' },
        ssoAliases: [],
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
    const stores = { tenants, members: new UserMemberships(), catalog: fakeCatalog };
    const first = await resolveClaims(stores, { tenant_id: tenant.id }, cache);
    const bySlug = await resolveClaims(stores, { tenant_slug: 'cached' }, cache);
    expect(first).toMatchObject({ tenant_id: tenant.id, tenant_slug: 'cached', tenant_status: 'trial', products: [], org_roles: [] });
    expect(bySlug).toEqual(first);
    expect(tenants.snapshotReads).toBe(1);
    expect(stores.members.reads).toBe(0);
    expect(first).not.toHaveProperty('permissions');
    expect(first).not.toHaveProperty('membership_status');
  });

  it('while the store read fails, an expired copy answers until staleIfErrorMs from when it was read, and is not stored again', async () => {
    const registry = inMemoryRegistry();
    const { tenant } = await createTenant(registry, { slug: 'outage', name: 'O', kind: 'customer', plan: 'standard' }, {});
    let now = 1_000_000;
    let storeDown = false;
    const cache = new RegistryCache({ ttlMs: 30_000, staleIfErrorMs: 60_000, now: () => now });
    const tenants = { snapshot: (lookup: Parameters<typeof registry.tenants.snapshot>[0]) => (storeDown ? Promise.reject(new Error('the store cannot be read')) : registry.tenants.snapshot(lookup)) };
    const stores = { tenants, members: new UserMemberships(), catalog: fakeCatalog };
    await resolveClaims(stores, { tenant_id: tenant.id }, cache);
    now += 30_000;
    storeDown = true;
    expect((await resolveClaims(stores, { tenant_id: tenant.id }, cache)).tenant_slug).toBe('outage');
    now += 30_000;
    expect((await resolveClaims(stores, { tenant_slug: 'outage' }, cache)).tenant_id).toBe(tenant.id);
    now += 1;
    await expect(resolveClaims(stores, { tenant_id: tenant.id }, cache)).rejects.toThrow('the store cannot be read');
  });

  it('an unknown tenant is not_found', async () => {
    const stores = { tenants: inMemoryRegistry().tenants, members: new UserMemberships(), catalog: fakeCatalog };
    await expect(resolveClaims(stores, { tenant_id: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('resolveClaims with user_id (SPEC-EXTENSIONS §7)', () => {
  const USER = 'f:ldap:grace';
  const ROLES = ['IT_ADMIN'];
  const PERMISSIONS = ['audit:read', 'members:manage'];

  async function world(...statuses: ('active' | 'inactive' | 'pending' | undefined)[]) {
    const registry = inMemoryRegistry();
    const ids: string[] = [];
    const slugs: string[] = [];
    for (const [i] of statuses.entries()) {
      const { tenant } = await createTenant(registry, { slug: `member-${i}-tenant`, name: 'M', kind: 'customer', plan: 'growth' }, {});
      ids.push(tenant.id);
      slugs.push(tenant.slug);
    }
    const members = new UserMemberships(
      statuses.flatMap((status, i) => (status ? [memberRecord(ids[i]!, USER, status, [`ROLE_${i}`, ...ROLES], PERMISSIONS)] : [])),
    );
    return { stores: { tenants: registry.tenants, members, catalog: fakeCatalog }, ids, slugs };
  }

  describe('a tenant named in the body is the tenant; the member record there decides', () => {
    it('an active member gets its roles and permissions there, whatever user_attrs.org_roles say', async () => {
      const { stores, ids } = await world('active');
      const claims = await resolveClaims(stores, { tenant_id: ids[0], user_id: USER, user_attrs: { org_roles: 'SUPERUSER' } });
      expect(claims).toEqual({
        tenant_id: ids[0], tenant_slug: 'member-0-tenant', org_roles: ['ROLE_0', 'IT_ADMIN'], products: [], plan: 'growth', tenant_status: 'trial',
        permissions: PERMISSIONS, membership_status: 'active',
      });
    });

    it('a pending member (invitation not yet accepted) gets no roles and no permissions: nothing is granted before acceptance', async () => {
      const { stores, slugs } = await world('pending');
      expect(await resolveClaims(stores, { tenant_slug: slugs[0], user_id: USER })).toMatchObject({ org_roles: [], permissions: [], membership_status: 'pending' });
    });

    it('an inactive member gets no roles and no permissions', async () => {
      const { stores, ids } = await world('inactive');
      expect(await resolveClaims(stores, { tenant_id: ids[0], user_id: USER })).toMatchObject({ org_roles: [], permissions: [], membership_status: 'inactive' });
    });

    it("a user without a record there is membership_status none, no roles, but the tenant's plan, status and products", async () => {
      const { stores, ids } = await world(undefined, 'active');
      expect(await resolveClaims(stores, { tenant_id: ids[0], user_id: USER, user_attrs: { org_roles: 'IT_ADMIN' } })).toEqual({
        tenant_id: ids[0], tenant_slug: 'member-0-tenant', org_roles: [], products: [], plan: 'growth', tenant_status: 'trial', permissions: [], membership_status: 'none',
      });
    });

    it("the named tenant wins over the user's single active membership elsewhere", async () => {
      const { stores, ids } = await world('inactive', 'active');
      expect(await resolveClaims(stores, { tenant_id: ids[0], user_id: USER })).toMatchObject({ tenant_id: ids[0], membership_status: 'inactive' });
    });
  });

  describe("no tenant named: the user's memberships decide", () => {
    it('exactly one active membership is the tenant, whatever the attributes name', async () => {
      const { stores, ids } = await world('pending', 'active', 'inactive');
      const claims = await resolveClaims(stores, { user_id: USER, user_attrs: { tenant_id: ids[0]! } });
      expect(claims).toMatchObject({ tenant_id: ids[1], org_roles: ['ROLE_1', 'IT_ADMIN'], membership_status: 'active' });
    });

    it('several active memberships: the tenant of user_attrs.tenant_id, then of user_attrs.tenant_slug, where the user is a member', async () => {
      const { stores, ids, slugs } = await world('active', 'active');
      expect(await resolveClaims(stores, { user_id: USER, user_attrs: { tenant_id: ids[1]!, tenant_slug: slugs[0]! } })).toMatchObject({ tenant_id: ids[1], membership_status: 'active' });
      expect(await resolveClaims(stores, { user_id: USER, user_attrs: { tenant_slug: slugs[0]! } })).toMatchObject({ tenant_id: ids[0], org_roles: ['ROLE_0', 'IT_ADMIN'] });
    });

    it("no active membership: the attributes' tenant, its record's status deciding", async () => {
      const { stores, ids } = await world('inactive', 'pending');
      expect(await resolveClaims(stores, { user_id: USER, user_attrs: { tenant_id: ids[0]! } })).toMatchObject({ tenant_id: ids[0], org_roles: [], permissions: [], membership_status: 'inactive' });
      expect(await resolveClaims(stores, { user_id: USER, user_attrs: { tenant_id: ids[1]! } })).toMatchObject({ tenant_id: ids[1], org_roles: [], permissions: [], membership_status: 'pending' });
    });

    it('attributes naming a tenant the user is no member of are not_found: attributes alone never give a tenant', async () => {
      const { stores, ids } = await world('active', 'active', undefined);
      await expect(resolveClaims(stores, { user_id: USER, user_attrs: { tenant_id: ids[2]!, org_roles: 'IT_ADMIN' } })).rejects.toMatchObject({ code: 'not_found' });
      const stranger = await world(undefined);
      await expect(resolveClaims(stranger.stores, { user_id: USER, user_attrs: { tenant_id: stranger.ids[0]! } })).rejects.toMatchObject({ code: 'not_found' });
    });

    it('without attributes and without a single active membership it is not_found, not invalid input', async () => {
      for (const statuses of [[], ['active', 'active'], ['pending']] as const) {
        const { stores } = await world(...statuses);
        await expect(resolveClaims(stores, { user_id: USER }), statuses.join()).rejects.toMatchObject({ code: 'not_found' });
      }
    });

    it('a malformed attribute key is still invalid input when the attributes are asked', async () => {
      const { stores } = await world('active', 'active');
      await expect(resolveClaims(stores, { user_id: USER, user_attrs: { tenant_id: 'not-a-uuid' } })).rejects.toMatchObject({ code: 'invalid_input' });
    });
  });

  it("a tenant-bound caller gets not_found for another tenant, the user's single membership included", async () => {
    const { stores, ids } = await world('active', undefined);
    await expect(resolveClaims(stores, { user_id: USER }, undefined, boundTo([ids[1]!]))).rejects.toMatchObject({ code: 'not_found' });
    expect(await resolveClaims(stores, { user_id: USER }, undefined, boundTo([ids[0]!]))).toMatchObject({ tenant_id: ids[0] });
  });

  it('with the cache warm, a claims call with user_id reads nothing, a user of no tenant included', async () => {
    const { stores, ids } = await world('active', undefined);
    const cache = new RegistryCache({ ttlMs: 60_000 });
    await resolveClaims(stores, { tenant_id: ids[0], user_id: USER }, cache);
    await resolveClaims(stores, { tenant_id: ids[1], user_id: 'nobody' }, cache);
    const reads = { tenants: stores.tenants.snapshotReads, members: stores.members.reads };
    expect(reads).toEqual({ tenants: 2, members: 2 });
    await resolveClaims(stores, { tenant_id: ids[0], user_id: USER }, cache);
    await resolveClaims(stores, { user_id: USER }, cache);
    await resolveClaims(stores, { tenant_id: ids[1], user_id: 'nobody' }, cache);
    expect({ tenants: stores.tenants.snapshotReads, members: stores.members.reads }).toEqual(reads);
  });
});
