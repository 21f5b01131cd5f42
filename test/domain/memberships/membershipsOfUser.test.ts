import { describe, expect, it } from 'vitest';
import { boundTo } from '../../../domain/access/tenantReach.ts';
import { membershipsOfUser, type ProviderMembership } from '../../../domain/memberships/membershipsOfUser.ts';
import { createTenant } from '../../../domain/tenants/createTenant.ts';
import { RegistryCache } from '../../../domain/reads/registryCache.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';
import { memberRecord, UserMemberships } from '../../support/fakes/userMemberships.ts';

const USER = 'user-1';

async function world() {
  const registry = inMemoryRegistry();
  const tenant = async (slug: string) => (await createTenant(registry, { slug, name: slug, kind: 'customer', plan: 'growth' }, {})).tenant;
  const [active, inactive, unrecorded] = [await tenant('acme-active'), await tenant('acme-inactive'), await tenant('acme-unrecorded')];
  const members = new UserMemberships([
    memberRecord(active.id, USER, 'active', ['IT_ADMIN'], ['audit:read', 'members:manage']),
    memberRecord(inactive.id, USER, 'inactive', ['MEMBER']),
  ]);
  const org = (tenantId: string | undefined, alias: string, extra: Partial<ProviderMembership> = {}): ProviderMembership => ({
    organizationId: `org-${alias}`, tenantId, alias, orgRoles: ['FROM_ATTRIBUTES'], attributes: {}, ...extra,
  });
  // The provider: the active member's organization, one of a registry tenant without a record, a foreign one.
  const provider = [
    org('9f6f7a8e-1111-4c1c-9a9a-000000000001', 'elsewhere', { attributes: { plan: ['gold'], tenant_status: ['active'], products: ['x'] } }),
    org(unrecorded.id, 'acme-unrecorded'),
    org(active.id, 'acme-active'),
  ];
  return { stores: { tenants: registry.tenants, members }, active, inactive, unrecorded, provider };
}

describe('membershipsOfUser', () => {
  it("lists the registry's member records first, then registry tenants without a record as none, then the provider's foreign organizations", async () => {
    const { stores, active, inactive, unrecorded, provider } = await world();
    const list = await membershipsOfUser(stores, USER, provider);
    expect(list).toEqual({
      items: [
        {
          tenant_id: active.id, tenant_slug: 'acme-active', organization_id: 'org-acme-active', org_roles: ['IT_ADMIN'], permissions: ['audit:read', 'members:manage'],
          membership_status: 'active', status: 'trial', plan: 'growth', products: [], source: 'registry',
        },
        // Taken out of the organization while inactive: no organization id; its record's roles as the members API shows them.
        { tenant_id: inactive.id, tenant_slug: 'acme-inactive', org_roles: ['MEMBER'], permissions: [], membership_status: 'inactive', status: 'trial', plan: 'growth', products: [], source: 'registry' },
        {
          tenant_id: unrecorded.id, tenant_slug: 'acme-unrecorded', organization_id: 'org-acme-unrecorded', org_roles: [], permissions: [], membership_status: 'none',
          status: 'trial', plan: 'growth', products: [], source: 'registry',
        },
        {
          tenant_id: '9f6f7a8e-1111-4c1c-9a9a-000000000001', tenant_slug: 'elsewhere', organization_id: 'org-elsewhere', org_roles: ['FROM_ATTRIBUTES'],
          status: 'active', plan: 'gold', products: ['x'], source: 'idp',
        },
      ],
    });
  });

  it("without the provider's answer lists the registry's records and says the list is partial", async () => {
    const { stores, active, inactive } = await world();
    const list = await membershipsOfUser(stores, USER, undefined);
    expect(list.partial).toBe(true);
    expect(list.items.map((m) => [m.tenant_id, m.membership_status, m.organization_id])).toEqual([
      [active.id, 'active', undefined],
      [inactive.id, 'inactive', undefined],
    ]);
  });

  it("shows a tenant-bound caller its tenants' memberships only", async () => {
    const { stores, active, provider } = await world();
    const list = await membershipsOfUser(stores, USER, provider, boundTo([active.id]));
    expect(list.items.map((m) => m.tenant_id)).toEqual([active.id]);
  });

  it('an unknown user has no memberships', async () => {
    const { stores } = await world();
    expect(await membershipsOfUser(stores, 'nobody', [])).toEqual({ items: [] });
  });

  it("reads the registry's part through the registry cache, as claims do: once, then from memory until the user or a tenant changes", async () => {
    const { stores, active, provider: withForeign } = await world();
    // An organization naming no registry tenant is looked for at every call (nothing caches an absence); left out here.
    const provider = withForeign.slice(1);
    const cache = new RegistryCache({ ttlMs: 60_000 });
    const uncached = await membershipsOfUser(stores, USER, provider);
    const [memberReads, tenantReads] = [stores.members.reads, stores.tenants.snapshotReads];
    expect(await membershipsOfUser(stores, USER, provider, undefined, cache)).toEqual(uncached);
    expect(await membershipsOfUser(stores, USER, provider, undefined, cache)).toEqual(uncached);
    expect([stores.members.reads, stores.tenants.snapshotReads]).toEqual([memberReads + 1, tenantReads + 1]);
    cache.invalidateUser(USER);
    cache.invalidateTenant(active.id);
    expect(await membershipsOfUser(stores, USER, provider, undefined, cache)).toEqual(uncached);
    expect([stores.members.reads, stores.tenants.snapshotReads]).toEqual([memberReads + 2, tenantReads + 2]);
  });
});
