import { SimulatedIdentityProvider } from '../identityProvider/simulatedIdentityProvider.ts';
import { MEMBER_LIST_HELD_AT_MOST } from '../domain/members/listMembers.ts';
import type { PlannedRead } from './statementPlans.ts';
import type { Seeded } from './seed.ts';

/**
 * The list and page rows of the bench as reads through the service's repositories, with values of the bench's data
 * (the middle tenant, the first product, actor and action): what `npm run bench -- --plans` explains.
 */
export function plannedReads(seeded: Seeded, membersTenantId: string, directoryId: string): PlannedRead[] {
  const tenant = seeded.tenants[Math.floor(seeded.tenants.length / 2)]!;
  const { minId, maxId } = seeded.audit;
  const deep = Math.floor(minId + 0.2 * (maxId - minId));
  const since = new Date(new Date(seeded.audit.from).getTime() + 0.5 * (new Date(seeded.audit.to).getTime() - new Date(seeded.audit.from).getTime()));
  const until = new Date(since.getTime() + 30 * 86_400_000);
  const audit = (name: string, filter: Record<string, string | number>): PlannedRead[] => [
    { row: `audit page 1, ${name}`, read: (s) => s.audit.pageJson(filter) },
    { row: `audit deep page, ${name}`, read: (s) => s.audit.pageJson({ ...filter, cursor: deep }) },
  ];
  return [
    { row: 'tenant list, first page (its positions)', read: (s) => s.tenants.page({}, undefined, 51) },
    { row: 'tenant list, slug prefix (its positions)', read: (s) => s.tenants.page({ prefix: tenant.slug.slice(0, -1) }, undefined, 51) },
    { row: 'tenant list: the JSON of 50 tenants the registry cache lacks', read: async (s) => s.tenants.documents((await s.tenants.page({}, undefined, 50)).map((p) => p.id)) },
    { row: 'entitlements of a tenant', read: (s) => s.tenants.entitlementsOf(tenant.id) },
    { row: 'API keys of a tenant', read: (s) => s.apiKeys.listOfTenant(tenant.id) },
    { row: 'catalog', read: (s) => s.catalog.list() },
    { row: "memberships of a user: the simulated identity provider's organizations (its fault check first)", read: (_s, orm) => new SimulatedIdentityProvider(orm, 'http://127.0.0.1').memberships(tenant.id) },
    { row: "memberships of a user: the registry's members, then their tenants", read: async (s) => s.tenants.snapshots((await s.members.ofUser(tenant.id)).map((m) => m.tenantId)) },
    { row: 'members of a tenant (the whole list the cache holds)', read: (s) => s.members.listing(membersTenantId, MEMBER_LIST_HELD_AT_MOST) },
    { row: 'members of a tenant (a store page, past the cache)', read: (s) => s.members.page(membersTenantId, {}, undefined, 51) },
    { row: 'invitations of a tenant, first page', read: (s) => s.invitations.page(membersTenantId, {}, undefined, 51) },
    { row: 'SCIM GET /Users, first page', read: (s) => s.directoryUsers.page(directoryId, undefined, 1, 50) },
    { row: 'SCIM GET /Users?filter=userName eq', read: (s) => s.directoryUsers.page(directoryId, { attribute: 'userName', value: 'scim-user-42@bench.example.com' }, 1, 50) },
    ...audit('tenant_id', { tenant_id: tenant.id }),
    ...audit('product', { product: seeded.products[0]! }),
    ...audit('actor_id', { actor_id: seeded.actors[0]! }),
    ...audit('action', { action: seeded.actions[0]! }),
    ...audit('since/until (30 days)', { since: since.toISOString(), until: until.toISOString() }),
  ];
}
