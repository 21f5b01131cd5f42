import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { clearFaults, injectFault, seedForeignOrganization, seedForeignUser } from '../../../store/simulatorControl.ts';
import { insertMember } from '../../support/memberRows.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

/** GET /v1/users/{id}/memberships (SPEC-EXTENSIONS §7) against the simulated identity provider. */
let service: TestService;
let idp: SimulatedIdentityProvider;
let issuer: OidcIssuer;
let authenticated: TestService;
beforeAll(async () => {
  service = await startTestService();
  idp = new SimulatedIdentityProvider(service.deps.orm, service.baseUrl);
  service.deps.identityProvider = idp;
  issuer = await startOidcIssuer();
  authenticated = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
  authenticated.deps.identityProvider = idp;
});
afterAll(async () => {
  await service?.close();
  await authenticated?.close();
  await issuer?.close();
});

type Tenant = { id: string; slug: string };
const createTenant = async (): Promise<Tenant> => (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('mship'), name: `Memberships ${randomUUID()}` })).body.tenant;

/**
 * A provider user who is an active IT_ADMIN of one tenant (and in its organization), an inactive MEMBER of another
 * (taken out of its organization), in the organization of a third tenant without a record, and in a foreign one.
 */
async function userInFourPlaces() {
  const [active, inactive, unrecorded] = [await createTenant(), await createTenant(), await createTenant()];
  const { userId } = await seedForeignUser(service.orm, { email: `${randomUUID()}@example.test` });
  for (const tenant of [active, unrecorded]) {
    const { organizationId } = await idp.ensureOrganization({ tenantId: tenant.id, slug: tenant.slug, name: tenant.slug });
    await idp.ensureMembership(organizationId, userId);
  }
  const foreign = await seedForeignOrganization(service.orm, { alias: uniqueSlug('foreign') });
  await idp.ensureMembership(foreign.organizationId, userId);
  await insertMember(service.orm, { tenantId: active.id, userId, status: 'active', roles: ['IT_ADMIN'] });
  await insertMember(service.orm, { tenantId: inactive.id, userId, status: 'inactive', roles: ['MEMBER'] });
  return { userId, active, inactive, unrecorded, foreign };
}

const memberships = (userId: string, on = service, headers?: Record<string, string>) => on.request('GET', `/v1/users/${encodeURIComponent(userId)}/memberships`, undefined, headers);

describe('GET /v1/users/{id}/memberships', () => {
  it("lists the registry's member records (source registry, roles, permissions, status), registry tenants without a record as none, then the provider's other organizations", async () => {
    const { userId, active, inactive, unrecorded, foreign } = await userInFourPlaces();
    const res = await memberships(userId);
    expect(res.status).toBe(200);
    const tenantPart = { status: 'trial', plan: 'starter', products: [], source: 'registry' };
    const records = [
      { tenant_id: active.id, tenant_slug: active.slug, organization_id: expect.any(String), org_roles: ['IT_ADMIN'], permissions: ['audit:read', 'directory:manage', 'members:manage', 'sso:manage'], membership_status: 'active', ...tenantPart },
      { tenant_id: inactive.id, tenant_slug: inactive.slug, org_roles: ['MEMBER'], permissions: [], membership_status: 'inactive', ...tenantPart },
    ].sort((a, b) => (a.tenant_slug < b.tenant_slug ? -1 : 1));
    expect(res.body).toEqual({
      items: [
        ...records,
        { tenant_id: unrecorded.id, tenant_slug: unrecorded.slug, organization_id: expect.any(String), org_roles: [], permissions: [], membership_status: 'none', ...tenantPart },
        { organization_id: foreign.organizationId, tenant_slug: expect.any(String), org_roles: [], source: 'idp' },
      ],
    });
  });

  it("with the identity provider unreachable, answers the registry's records alone and says the list is partial", async () => {
    const { userId, active, inactive } = await userInFourPlaces();
    await injectFault(service.orm, { kind: 'unavailable', step: 'memberships', tenantSlug: active.slug });
    try {
      const res = await memberships(userId);
      expect(res.status).toBe(200);
      expect(res.body.partial).toBe(true);
      expect(res.body.items.map((m: { tenant_id: string }) => m.tenant_id).sort()).toEqual([active.id, inactive.id].sort());
      expect(res.body.items.every((m: { organization_id?: string }) => m.organization_id === undefined)).toBe(true);
    } finally {
      await clearFaults(service.orm, { tenantSlug: active.slug });
    }
  });

  it("takes any identity provider user id (a federated one too) and refuses one that cannot be", async () => {
    const tenant = await createTenant();
    const federated = `f:ldap:${randomUUID()}`;
    await insertMember(service.orm, { tenantId: tenant.id, userId: federated, status: 'pending', roles: ['IT_ADMIN'] });
    const res = await memberships(federated);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [expect.objectContaining({ tenant_id: tenant.id, membership_status: 'pending', source: 'registry' })] });
    expect((await memberships('has space')).status).toBe(400);
    expect(await memberships(randomUUID())).toMatchObject({ status: 200, body: { items: [] } });
  });

  it("shows a token bound to tenants only its tenants' memberships", async () => {
    const { userId, active } = await userInFourPlaces();
    const bound = { authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: 'product-x', scope: 'claims:read', tenant_id: active.id })}` };
    const res = await memberships(userId, authenticated, bound);
    expect(res.status).toBe(200);
    expect(res.body.items.map((m: { tenant_id: string }) => m.tenant_id)).toEqual([active.id]);
  });
});
