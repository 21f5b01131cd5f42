import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseApiKey } from '../../domain/apiKeyFormat.ts';
import { RegistryCache } from '../../domain/reads/registryCache.ts';
import { TENANT_LISTING, apiKeyListing, invitationListing } from '../../domain/reads/listingNames.ts';
import { tenantListingQuery } from '../../domain/tenants/listTenants.ts';
import { invitationListingQuery } from '../../domain/invitations/listInvitations.ts';
import { TENANT_LIST_DEFAULT_LIMIT } from '../../domain/schemas/tenant.ts';
import { INVITATION_LIST_DEFAULT_LIMIT } from '../../domain/schemas/invitations.ts';
import { notificationsSettled } from '../support/notificationsSettled.ts';
import { createLogger } from '../../platform/logger.ts';
import { startChangeListener, type ChangeListener } from '../../store/changeListener.ts';
import { eventually } from '../support/eventually.ts';
import { insertMember, setMemberStatus } from '../support/memberRows.ts';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

/**
 * Two replicas of the API on one database, each with its own registry cache connected to the tables' change
 * notifications, as startApi wires them. A long TTL makes sure nothing here passes merely by expiry.
 */
interface Replica {
  service: TestService;
  cache: RegistryCache;
  listener: ChangeListener;
}

async function startReplica(): Promise<Replica> {
  const cache = new RegistryCache({ ttlMs: 10 * 60_000 });
  const listener = startChangeListener({ databaseUrl: inject('databaseUrl'), cache, log: createLogger('silent', 'test-listener') });
  await listener.ready;
  const service = await startTestService({}, { cache });
  return { service, cache, listener };
}

let a: Replica;
let b: Replica;
beforeAll(async () => {
  [a, b] = await Promise.all([startReplica(), startReplica()]);
});
afterAll(async () => {
  for (const replica of [a, b]) {
    await replica.listener.stop();
    await replica.service.close();
  }
});

async function tenantWithKey(replica: Replica) {
  const created = await replica.service.request('POST', '/v1/tenants', { slug: uniqueSlug('cache'), name: 'Cache' });
  expect(created.status).toBe(201);
  const key = await replica.service.request('POST', '/v1/api-keys', { tenant_id: created.body.tenant.id, name: 'k' });
  expect(key.status).toBe(201);
  return { tenant: created.body.tenant as { id: string; slug: string }, keyId: key.body.api_key.id as string, plaintext: key.body.plaintext as string };
}

const verify = (replica: Replica, key: string) => replica.service.request('POST', '/v1/internal/api-keys/verify', { key });
const claims = (replica: Replica, tenantId: string) => replica.service.request('POST', '/v1/internal/idp/claims', { tenant_id: tenantId });
const prefixOf = (plaintext: string) => parseApiKey(plaintext)!.prefix;

describe('the registry cache of verify and claims', () => {
  it('a revoked key fails verification on the replica that revoked it at once, although it was cached there', async () => {
    const { keyId, plaintext } = await tenantWithKey(a);
    await eventually(async () => (await verify(a, plaintext)).body.valid === true && a.cache.apiKeys.get(prefixOf(plaintext)) !== undefined, 5_000, 'replica a holding the key');
    expect((await a.service.request('DELETE', `/v1/api-keys/${keyId}`)).status).toBe(204);
    expect((await verify(a, plaintext)).body).toEqual({ valid: false, code: 'REVOKED' });
  });

  it('a key revoked on one replica fails on another that had it cached, once the notification arrives', async () => {
    const { keyId, plaintext } = await tenantWithKey(a);
    // The key's own creation notifies too; once it has reached b, b's copy is not forgotten by it arriving late.
    await notificationsSettled(b.service.orm, b.cache);
    // A verify whose read raced any change (other files share the database and its notifications) stores nothing,
    // by design: b verifies until it holds the key.
    await eventually(async () => (await verify(b, plaintext)).body.valid === true && b.cache.apiKeys.get(prefixOf(plaintext)) !== undefined, 5_000, 'replica b holding the key');
    expect((await a.service.request('DELETE', `/v1/api-keys/${keyId}`)).status).toBe(204);
    await eventually(async () => (await verify(b, plaintext)).body.valid === false, 5_000, 'replica b refusing the revoked key');
  });

  it('a key revoked by an operator straight in the database fails on every replica', async () => {
    const { keyId, plaintext } = await tenantWithKey(a);
    expect((await verify(a, plaintext)).body.valid).toBe(true);
    expect((await verify(b, plaintext)).body.valid).toBe(true);
    await a.service.orm.em.fork().execute('update api_keys set revoked_at = now() where id = ?', [keyId]);
    for (const replica of [a, b]) {
      await eventually(async () => (await verify(replica, plaintext)).body.valid === false, 5_000, 'the revoked key refused');
    }
  });

  it('a frozen tenant: its keys fail and its claims say frozen, on this replica at once and on the other soon after', async () => {
    const { tenant, plaintext } = await tenantWithKey(a);
    for (const replica of [a, b]) {
      expect((await verify(replica, plaintext)).body.valid).toBe(true);
      expect((await claims(replica, tenant.id)).body.tenant_status).toBe('trial');
    }
    expect((await a.service.request('POST', `/v1/tenants/${tenant.id}/cancel`)).status).toBe(200);
    expect((await verify(a, plaintext)).body).toEqual({ valid: false, code: 'TENANT_INACTIVE' });
    expect((await claims(a, tenant.id)).body.tenant_status).toBe('frozen');
    await eventually(async () => (await verify(b, plaintext)).body.valid === false, 5_000, 'replica b refusing the frozen tenant key');
    await eventually(async () => (await claims(b, tenant.id)).body.tenant_status === 'frozen', 5_000, 'replica b claims frozen');
  });

  it('a started trial shows in the claims of both replicas, by id and by slug', async () => {
    const { tenant } = await tenantWithKey(a);
    expect((await claims(b, tenant.id)).body.products).toEqual([]);
    const bySlug = () => b.service.request('POST', '/v1/internal/idp/claims', { user_attrs: { tenant_slug: tenant.slug } });
    expect((await bySlug()).body.products).toEqual([]);
    expect((await a.service.request('POST', '/v1/catalog/trial-request', { tenant_id: tenant.id, product: 'analytics' })).status).toBe(201);
    expect((await claims(a, tenant.id)).body.products).toEqual(['analytics']);
    await eventually(async () => (await claims(b, tenant.id)).body.products.includes('analytics'), 5_000, 'replica b claims with the trial');
    expect((await bySlug()).body.products).toEqual(['analytics']);
  });

  it.each([
    ['archiving', (id: string) => ['POST', `/v1/tenants/${id}/archive`] as const, (body: Record<string, unknown>) => body.tenant_status === 'archived'],
    ['activation', (id: string) => ['POST', `/v1/tenants/${id}/activate`] as const, (body: Record<string, unknown>) => body.tenant_status === 'active'],
    ['an entitlement put', (id: string) => ['PUT', `/v1/tenants/${id}/entitlements/analytics`] as const, (body: Record<string, unknown>) => (body.products as string[]).includes('analytics')],
  ])("%s on one replica is in the claims of both: this one at once, the other once it hears the change", async (_name, request, changed) => {
    const { tenant } = await tenantWithKey(a);
    for (const replica of [a, b]) expect(changed((await claims(replica, tenant.id)).body)).toBe(false);
    const [method, path] = request(tenant.id);
    expect([200, 201]).toContain((await a.service.request(method, path)).status);
    expect(changed((await claims(a, tenant.id)).body)).toBe(true);
    await eventually(async () => changed((await claims(b, tenant.id)).body), 5_000, 'replica b claims the change');
  });

  it('an entitlement revoked on one replica leaves the claims of both', async () => {
    const { tenant } = await tenantWithKey(a);
    expect((await a.service.request('PUT', `/v1/tenants/${tenant.id}/entitlements/analytics`)).status).toBe(201);
    for (const replica of [a, b]) await eventually(async () => (await claims(replica, tenant.id)).body.products.includes('analytics'), 5_000, 'the entitlement claimed');
    expect((await a.service.request('DELETE', `/v1/tenants/${tenant.id}/entitlements/analytics`)).status).toBe(204);
    expect((await claims(a, tenant.id)).body.products).toEqual([]);
    await eventually(async () => (await claims(b, tenant.id)).body.products.length === 0, 5_000, 'replica b without the entitlement');
  });

  it("a tenant's entitlements listing: granted on one replica, listed there at once and on the other once it hears the change; changed in the database on both", async () => {
    const { tenant } = await tenantWithKey(a);
    const listed = async (replica: Replica) =>
      ((await replica.service.request('GET', `/v1/entitlements?tenant_id=${tenant.id}`)).body.items as { product: string; enabled: boolean }[]).map((e) => `${e.product}:${e.enabled}`);
    for (const replica of [a, b]) expect(await listed(replica)).toEqual([]);
    expect((await a.service.request('PUT', `/v1/tenants/${tenant.id}/entitlements/analytics`)).status).toBe(201);
    expect(await listed(a)).toEqual(['analytics:true']);
    await eventually(async () => (await listed(b)).length === 1, 5_000, "replica b's listing with the entitlement");
    await a.service.orm.em.fork().execute('update tenant_products set enabled = false where tenant_id = ?', [tenant.id]);
    for (const replica of [a, b]) await eventually(async () => (await listed(replica))[0] === 'analytics:false', 5_000, 'the listing with the entitlement disabled in the database');
  });

  it("a member deactivated or given another role straight in the database: both replicas' claims follow once they hear it", async () => {
    const { tenant } = await tenantWithKey(a);
    const userId = `f:ldap:${tenant.id}`;
    await insertMember(a.service.orm, { tenantId: tenant.id, userId, status: 'active', roles: ['IT_ADMIN'] });
    const memberClaims = (replica: Replica) => replica.service.request('POST', '/v1/internal/idp/claims', { tenant_id: tenant.id, user_id: userId });
    for (const replica of [a, b]) {
      expect((await memberClaims(replica)).body).toMatchObject({ org_roles: ['IT_ADMIN'], membership_status: 'active' });
      // Cached once the insert's own notifications have come by.
      await eventually(async () => (await memberClaims(replica)) && replica.cache.grants.get(userId) !== undefined, 5_000, 'the member cached');
    }
    await setMemberStatus(a.service.orm, tenant.id, userId, 'inactive');
    for (const replica of [a, b]) {
      await eventually(async () => (await memberClaims(replica)).body.membership_status === 'inactive', 5_000, 'the deactivation claimed');
      expect((await memberClaims(replica)).body).toMatchObject({ org_roles: [], permissions: [] });
    }
    await setMemberStatus(a.service.orm, tenant.id, userId, 'active');
    await a.service.orm.em.fork().execute(
      `update member_roles set role_id = (select id from roles where slug = 'MEMBER' and tenant_id is null) where tenant_id = ? and user_id = ?`,
      [tenant.id, userId],
    );
    for (const replica of [a, b]) {
      await eventually(async () => (await memberClaims(replica)).body.org_roles?.[0] === 'MEMBER', 5_000, 'the new role claimed');
      expect((await memberClaims(replica)).body).toMatchObject({ org_roles: ['MEMBER'], permissions: [], membership_status: 'active' });
    }
  });

  it("a member's roles changed and the member deactivated on one replica: this one's claims at once, the other's once it hears the change", async () => {
    const { tenant } = await tenantWithKey(a);
    await insertMember(a.service.orm, { tenantId: tenant.id, userId: `admin-${tenant.id}`, status: 'active', roles: ['IT_ADMIN'] });
    const userId = `f:ldap:${tenant.id}`;
    await insertMember(a.service.orm, { tenantId: tenant.id, userId, status: 'active', roles: ['MEMBER'] });
    const memberClaims = async (replica: Replica) =>
      (await replica.service.request('POST', '/v1/internal/idp/claims', { tenant_id: tenant.id, user_id: userId })).body as { org_roles: string[]; membership_status: string };
    for (const replica of [a, b]) {
      await eventually(async () => (await memberClaims(replica)).org_roles[0] === 'MEMBER' && replica.cache.grants.get(userId) !== undefined, 5_000, 'the member cached');
    }
    const member = `/v1/tenants/${tenant.id}/members/${encodeURIComponent(userId)}`;
    expect((await a.service.request('PUT', member, { roles: ['IT_ADMIN'] })).status).toBe(200);
    expect((await memberClaims(a)).org_roles).toEqual(['IT_ADMIN']);
    await eventually(async () => (await memberClaims(b)).org_roles[0] === 'IT_ADMIN', 5_000, 'replica b claims the new role');
    expect((await a.service.request('POST', `${member}/deactivate`)).status).toBe(200);
    expect(await memberClaims(a)).toMatchObject({ org_roles: [], membership_status: 'inactive' });
    await eventually(async () => (await memberClaims(b)).membership_status === 'inactive', 5_000, 'replica b claims the deactivation');
  });

  it("a role's permissions changed on one replica are in the member claims of both: this one at once, the other once it hears the change", async () => {
    const { tenant } = await tenantWithKey(a);
    const permission = `cache:read-${tenant.id.slice(0, 8)}`;
    expect((await a.service.request('POST', '/v1/permissions', { slug: permission })).status).toBe(201);
    const role = await a.service.request('POST', '/v1/roles', { slug: 'Viewer', name: 'Viewer', tenant_id: tenant.id });
    expect(role.status).toBe(201);
    const userId = `f:ldap:${tenant.id}`;
    await insertMember(a.service.orm, { tenantId: tenant.id, userId, status: 'active', roles: ['Viewer'] });
    const permissionsOn = async (replica: Replica) =>
      (await replica.service.request('POST', '/v1/internal/idp/claims', { tenant_id: tenant.id, user_id: userId })).body.permissions as string[];
    for (const replica of [a, b]) expect(await permissionsOn(replica)).toEqual([]);
    expect((await a.service.request('PATCH', `/v1/roles/${role.body.id}`, { permissions: [permission] })).status).toBe(200);
    expect(await permissionsOn(a)).toEqual([permission]);
    await eventually(async () => (await permissionsOn(b)).includes(permission), 5_000, 'replica b claims the new permission');
  });

  it('a tenant read (by id and by slug): renamed on one replica, this one answers the new name at once and the other once it hears the change; a change in the database in both', async () => {
    const { tenant } = await tenantWithKey(a);
    const named = async (replica: Replica) => {
      const [byId, bySlug] = await Promise.all([
        replica.service.request('GET', `/v1/tenants/${tenant.id}`),
        replica.service.request('GET', `/v1/tenants/by-slug/${tenant.slug}`),
      ]);
      expect(bySlug.body).toEqual(byId.body);
      return byId.body.name as string;
    };
    for (const replica of [a, b]) {
      await eventually(async () => (await named(replica)) === 'Cache' && replica.cache.documents.tenant({ by: 'id', id: tenant.id }) !== undefined, 5_000, 'the tenant held');
    }
    expect((await a.service.request('PATCH', `/v1/tenants/${tenant.id}`, { name: 'Renamed' })).status).toBe(200);
    expect(await named(a)).toBe('Renamed');
    await eventually(async () => (await named(b)) === 'Renamed', 5_000, "replica b's read with the new name");
    await a.service.orm.em.fork().execute('update tenants set name = ? where id = ?', ['Renamed in the database', tenant.id]);
    for (const replica of [a, b]) await eventually(async () => (await named(replica)) === 'Renamed in the database', 5_000, 'the name set in the database');
  });

  it("a tenant's member list: a member changed on one replica is in this one's list at once and in the other's once it hears the change; a change in the database in both", async () => {
    const { tenant } = await tenantWithKey(a);
    const admin = `admin-${tenant.id}`;
    const userId = `f:ldap:${tenant.id}`;
    await insertMember(a.service.orm, { tenantId: tenant.id, userId: admin, status: 'active', roles: ['IT_ADMIN'] });
    await insertMember(a.service.orm, { tenantId: tenant.id, userId, status: 'active', roles: ['MEMBER'] });
    const listed = async (replica: Replica) => {
      const items = (await replica.service.request('GET', `/v1/tenants/${tenant.id}/members`)).body.items as { user_id: string; roles: string[]; status: string }[];
      return items.find((m) => m.user_id === userId);
    };
    for (const replica of [a, b]) {
      // Held once the inserts' own notifications have come by.
      await eventually(async () => (await listed(replica))?.roles[0] === 'MEMBER' && replica.cache.memberLists.get(tenant.id) !== undefined, 5_000, 'the list held');
    }
    const member = `/v1/tenants/${tenant.id}/members/${encodeURIComponent(userId)}`;
    expect((await a.service.request('PUT', member, { roles: ['IT_ADMIN'] })).status).toBe(200);
    expect((await listed(a))?.roles).toEqual(['IT_ADMIN']);
    await eventually(async () => (await listed(b))?.roles[0] === 'IT_ADMIN', 5_000, "replica b's list with the new role");
    expect((await b.service.request('POST', `${member}/deactivate`)).status).toBe(200);
    expect((await listed(b))?.status).toBe('inactive');
    await eventually(async () => (await listed(a))?.status === 'inactive', 5_000, "replica a's list with the deactivation");
    await setMemberStatus(a.service.orm, tenant.id, userId, 'pending');
    for (const replica of [a, b]) await eventually(async () => (await listed(replica))?.status === 'pending', 5_000, 'the list with the status set in the database');
    await a.service.orm.em.fork().execute('delete from members where tenant_id = ? and user_id = ?', [tenant.id, userId]);
    for (const replica of [a, b]) await eventually(async () => (await listed(replica)) === undefined, 5_000, 'the list without the member deleted in the database');
  });

  it("the tenants' listing: a tenant made on one replica is in this one's page at once and in the other's once it hears the insert; a rename in the database in both", async () => {
    const slug = uniqueSlug('listing');
    const query = tenantListingQuery({ prefix: slug }, TENANT_LIST_DEFAULT_LIMIT, undefined);
    const listed = async (replica: Replica) =>
      ((await replica.service.request('GET', `/v1/tenants?q=${slug}`)).body.items as { slug: string; name: string }[]).map((t) => `${t.slug} ${t.name}`);
    for (const replica of [a, b]) {
      // Held once no other test's tenant change (any forgets the listing) came in between.
      await eventually(async () => (await listed(replica)).length === 0 && replica.cache.listings.page(TENANT_LISTING, query) !== undefined, 5_000, 'the empty page held');
    }
    const created = await a.service.request('POST', '/v1/tenants', { slug, name: 'Listed' });
    expect(created.status).toBe(201);
    expect(await listed(a)).toEqual([`${slug} Listed`]);
    await eventually(async () => (await listed(b)).length === 1, 5_000, "replica b's page with the new tenant");
    for (const replica of [a, b]) await eventually(async () => (await listed(replica)).length === 1 && replica.cache.listings.page(TENANT_LISTING, query) !== undefined, 5_000, 'the page held again');
    await a.service.orm.em.fork().execute('update tenants set name = ? where id = ?', ['Renamed in the database', created.body.tenant.id]);
    for (const replica of [a, b]) await eventually(async () => (await listed(replica))[0] === `${slug} Renamed in the database`, 5_000, 'the name set in the database');
  });

  it("a tenant's API keys listing: made and revoked on one replica, at once there and on the other once it hears it; renamed in the database in both; verify's last_used_at alone leaves it held", async () => {
    const { tenant, keyId, plaintext } = await tenantWithKey(a);
    const listed = async (replica: Replica) =>
      ((await replica.service.request('GET', `/v1/api-keys?tenant_id=${tenant.id}`)).body.items as { id: string; name: string; revoked_at: string | null }[]).map(
        (k) => `${k.name}${k.revoked_at ? ' revoked' : ''}`,
      );
    const held = (replica: Replica) => replica.cache.listings.page(apiKeyListing(tenant.id), '') !== undefined;
    for (const replica of [a, b]) await eventually(async () => (await listed(replica)).join() === 'k' && held(replica), 5_000, 'the listing held');
    expect((await a.service.request('POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'second' })).status).toBe(201);
    expect(await listed(a)).toEqual(['second', 'k']);
    await eventually(async () => (await listed(b)).length === 2, 5_000, "replica b's listing with the new key");
    expect((await b.service.request('DELETE', `/v1/api-keys/${keyId}`)).status).toBe(204);
    expect(await listed(b)).toEqual(['second', 'k revoked']);
    await eventually(async () => (await listed(a))[1] === 'k revoked', 5_000, "replica a's listing with the revocation");
    await a.service.orm.em.fork().execute("update api_keys set name = 'renamed' where name = 'second' and tenant_id = ?", [tenant.id]);
    for (const replica of [a, b]) await eventually(async () => (await listed(replica))[0] === 'renamed', 5_000, 'the name set in the database');

    for (const replica of [a, b]) await eventually(async () => (await listed(replica)).length === 2 && held(replica), 5_000, 'the listing held again');
    await a.service.orm.em.fork().execute('update api_keys set last_used_at = now() where tenant_id = ?', [tenant.id]);
    for (const replica of [a, b]) {
      await notificationsSettled(replica.service.orm, replica.cache);
      expect(held(replica)).toBe(true);
    }
    expect((await verify(a, plaintext)).body).toEqual({ valid: false, code: 'REVOKED' });
  });

  it("a tenant's invitations listing: made on one replica, at once there and on the other once it hears it; changed in the database in both", async () => {
    const { tenant } = await tenantWithKey(a);
    const query = invitationListingQuery({}, INVITATION_LIST_DEFAULT_LIMIT);
    const listed = async (replica: Replica) =>
      ((await replica.service.request('GET', `/v1/tenants/${tenant.id}/invitations`)).body.items as { email: string; state: string }[]).map((i) => `${i.email} ${i.state}`);
    for (const replica of [a, b]) {
      await eventually(async () => (await listed(replica)).length === 0 && replica.cache.listings.page(invitationListing(tenant.id), query) !== undefined, 5_000, 'the empty listing held');
    }
    const invited = await a.service.request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: 'listed@cache.example', send_email: false });
    expect(invited.status).toBe(201);
    expect(await listed(a)).toEqual(['listed@cache.example pending']);
    await eventually(async () => (await listed(b)).length === 1, 5_000, "replica b's listing with the invitation");
    for (const replica of [a, b]) {
      await eventually(async () => (await listed(replica)).length === 1 && replica.cache.listings.page(invitationListing(tenant.id), query) !== undefined, 5_000, 'the listing held again');
    }
    await a.service.orm.em.fork().execute("update invitations set state = 'expired' where tenant_id = ?", [tenant.id]);
    for (const replica of [a, b]) await eventually(async () => (await listed(replica))[0] === 'listed@cache.example expired', 5_000, 'the state set in the database');
  });

  it("the catalog's listing: a product changed in the database is in both replicas' listings once they hear it", async () => {
    const described = async (replica: Replica) =>
      ((await replica.service.request('GET', '/v1/catalog')).body.items as { key: string; description: string }[]).find((p) => p.key === 'automation')?.description;
    const [row] = await a.service.orm.em.fork().execute<{ description: string }[]>("select description from catalog_products where key = 'automation'");
    const original = row!.description;
    for (const replica of [a, b]) {
      await eventually(async () => (await described(replica)) === original && replica.cache.documents.catalog() !== undefined, 5_000, 'the catalog held');
    }
    const setDescription = (description: string) => a.service.orm.em.fork().execute("update catalog_products set description = ? where key = 'automation'", [description]);
    try {
      await setDescription(`${original} (changed by an operator)`);
      for (const replica of [a, b]) await eventually(async () => (await described(replica)) === `${original} (changed by an operator)`, 5_000, 'the description set in the database');
    } finally {
      await setDescription(original);
    }
    for (const replica of [a, b]) await eventually(async () => (await described(replica)) === original, 5_000, 'the description set back');
  });

  it('without its change listener a replica serves nothing from memory, so a change made elsewhere is seen at once', async () => {
    const cache = new RegistryCache({ ttlMs: 10 * 60_000 });
    const listener = startChangeListener({ databaseUrl: inject('databaseUrl'), cache, log: createLogger('silent', 'test-listener') });
    await listener.ready;
    const c = await startTestService({}, { cache });
    try {
      const { keyId, plaintext } = await tenantWithKey(a);
      // Held once a verify's read raced no notification (other files' changes notify too, and a raced read is not kept).
      await eventually(
        async () => (await c.request('POST', '/v1/internal/api-keys/verify', { key: plaintext })).body.valid === true && cache.apiKeys.get(prefixOf(plaintext)) !== undefined,
        5_000,
        'the key held',
      );
      await listener.stop();
      expect(cache.active).toBe(false);
      // No notification can reach c now; it must read the store.
      await a.service.orm.em.fork().execute('update api_keys set revoked_at = now() where id = ?', [keyId]);
      expect((await c.request('POST', '/v1/internal/api-keys/verify', { key: plaintext })).body).toEqual({ valid: false, code: 'REVOKED' });
    } finally {
      await listener.stop();
      await c.close();
    }
  });
});

describe("the registry cache of a directory's SCIM reads", () => {
  async function directoryOn(replica: Replica) {
    const tenant = (await replica.service.request('POST', '/v1/tenants', { slug: uniqueSlug('cscim'), name: 'SCIM cache' })).body.tenant as { id: string; slug: string };
    const directory = (await replica.service.request('POST', `/v1/tenants/${tenant.id}/directories`, {})).body as { id: string; token: string };
    const scim = (on: Replica, method: string, path: string, body?: unknown, token = directory.token) =>
      on.service.request(method, `/scim/v2/directories/${directory.id}${path}`, body, { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) });
    return { tenant, directory, scim };
  }
  const byName = (userName: string) => `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`;

  it("a user's change on one replica is in this one's next read at once and in the other's once it hears the change; a change in the database in both", async () => {
    const { tenant, directory, scim } = await directoryOn(a);
    const email = `cached@${tenant.slug}.example`;
    const id = (await scim(a, 'POST', '/Users', { userName: email, displayName: 'First' })).body.id as string;
    for (const replica of [a, b]) expect((await scim(replica, 'GET', byName(email))).body.Resources[0].displayName).toBe('First');
    await eventually(
      async () => (await scim(b, 'GET', byName(email))).body.Resources[0].displayName === 'First' && b.cache.directories.read(directory.id, `page|userName|${email}|1|200||`) !== undefined,
      5_000,
      'replica b holding the read',
    );

    await scim(a, 'PUT', `/Users/${id}`, { userName: email, displayName: 'Second' });
    expect((await scim(a, 'GET', byName(email))).body.Resources[0].displayName).toBe('Second');
    await eventually(async () => (await scim(b, 'GET', byName(email))).body.Resources[0].displayName === 'Second', 5_000, 'replica b reading the change');

    await a.service.orm.em.fork().execute(`update directory_users set resource = resource || '{"displayName": "Third"}' where id = ?`, [id]);
    for (const replica of [a, b]) await eventually(async () => (await scim(replica, 'GET', `/Users/${id}`)).body.displayName === 'Third', 5_000, 'both replicas reading the database change');
  });

  it("a rotated directory's old token keeps working for its grace on both replicas; a deleted directory's token fails on both once they hear it", async () => {
    const { directory, scim } = await directoryOn(a);
    for (const replica of [a, b]) expect((await scim(replica, 'GET', '/Users')).status).toBe(200);
    const rotated = await a.service.request('POST', `/v1/directories/${directory.id}/rotate-token`);
    expect(rotated.status).toBe(200);
    for (const replica of [a, b]) await eventually(async () => (await scim(replica, 'GET', '/Users', undefined, rotated.body.token)).status === 200, 5_000, 'the new token');
    expect((await scim(b, 'GET', '/Users')).status).toBe(200);
    expect((await a.service.request('DELETE', `/v1/directories/${directory.id}`)).status).toBe(204);
    expect((await scim(a, 'GET', '/Users', undefined, rotated.body.token)).status).toBe(401);
    await eventually(async () => (await scim(b, 'GET', '/Users', undefined, rotated.body.token)).status === 401, 5_000, 'replica b refusing the deleted directory');
  });
});
