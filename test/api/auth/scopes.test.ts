import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';
import { grants, scopesOf } from '../../../api/auth/scopes.ts';
import { allRoutes } from '../../../api/routes/index.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

/** SPEC-EXTENSIONS §5, row by row: the scope each operation needs. */
const SCOPE_TABLE: Record<string, string> = {
  listTenants: 'tenants:read', getTenant: 'tenants:read', getTenantBySlug: 'tenants:read', listEntitlements: 'tenants:read',
  listCatalog: 'tenants:read', listApiKeys: 'tenants:read',
  createTenant: 'tenants:write', updateTenant: 'tenants:write', activateTenant: 'tenants:write', cancelTenant: 'tenants:write',
  archiveTenant: 'tenants:write', putEntitlement: 'tenants:write', revokeEntitlement: 'tenants:write',
  requestProduct: 'tenants:write', startTrial: 'tenants:write', createApiKey: 'tenants:write', rotateApiKey: 'tenants:write',
  revokeApiKey: 'tenants:write',
  verifyApiKey: 'keys:verify',
  resolveClaims: 'claims:read', listMemberships: 'claims:read',
  listAuditEvents: 'audit:read', exportAuditEvents: 'audit:read', checkAuditIntegrity: 'audit:read', listAuditStreams: 'audit:read',
  appendAuditEvent: 'audit:write', createAuditStream: 'audit:streams', deleteAuditStream: 'audit:streams',
  resendInvite: 'provisioning:operate', retryProvisioning: 'provisioning:operate',
  listPermissions: 'members:read', listRoles: 'members:read', listMembers: 'members:read', getMember: 'members:read',
  createPermission: 'registry:admin', deletePermission: 'registry:admin', createRole: 'members:write', updateRole: 'members:write',
  deleteRole: 'members:write', putMember: 'members:write', removeMember: 'members:write', deactivateMember: 'members:write',
  reactivateMember: 'members:write',
  listInvitations: 'members:read', getInvitation: 'members:read', listDomains: 'members:read',
  addDomain: 'members:write', verifyDomain: 'members:write', removeDomain: 'members:write', listSsoConnections: 'members:read',
  createSsoConnection: 'members:write', updateSsoConnection: 'members:write', deleteSsoConnection: 'members:write', getSsoConnection: 'members:read', recordSsoSignIn: 'claims:read', checkSsoSignIn: 'claims:read',
  listDirectories: 'members:read', getDirectory: 'members:read', createDirectory: 'members:write', updateDirectory: 'members:write',
  rotateDirectoryToken: 'members:write', deleteDirectory: 'members:write',
  scimServiceProviderConfig: 'public', scimResourceTypes: 'public', scimSchemas: 'public', createPortalLink: 'members:write', scimResourceType: 'public', scimSchema: 'public', scimSearchAll: 'public', scimSearchUsers: 'public', scimSearchGroups: 'public', scimListUsers: 'public', scimGetUser: 'public',
  scimCreateUser: 'public', scimReplaceUser: 'public', scimPatchUser: 'public', scimDeleteUser: 'public', scimListGroups: 'public',
  scimGetGroup: 'public', scimCreateGroup: 'public', scimReplaceGroup: 'public', scimPatchGroup: 'public', scimDeleteGroup: 'public',
  createInvitation: 'members:write', resendInvitation: 'members:write', revokeInvitation: 'members:write',
  health: 'public', readiness: 'public', simulatedActionToken: 'public', completeSimulatedActionToken: 'public', simulatedSamlDescriptor: 'public',
  checkInvitationLink: 'claims:read', acceptInvitationLink: 'claims:read',
  decodePayloads: 'registry:admin', encodePayloads: 'registry:admin',
  putProductClients: 'registry:admin', setMemberBreakGlass: 'members:write',
  listEvents: 'events:read', getAsyncApiDocument: 'events:read',
  createWebhookEndpoint: 'events:write', listWebhookEndpoints: 'events:write', getWebhookEndpoint: 'events:write', updateWebhookEndpoint: 'events:write',
  deleteWebhookEndpoint: 'events:write', rotateWebhookSecret: 'events:write', replayWebhookEndpoint: 'events:write',
};

describe('scopesOf and grants', () => {
  it('reads the space-separated scope claim and lets registry:admin stand for every scope', () => {
    const scopes = scopesOf({ scope: 'openid  tenants:read profile' });
    expect(grants(scopes, 'tenants:read')).toBe(true);
    expect(grants(scopes, 'tenants:write')).toBe(false);
    expect(grants(scopesOf({ scope: 'registry:admin' }), 'audit:write')).toBe(true);
  });

  it('treats a missing or non-string scope claim as no scope at all', () => {
    expect(scopesOf(undefined).size).toBe(0);
    expect(scopesOf({ scope: ['tenants:read'] }).size).toBe(0);
    expect(grants(scopesOf({ scope: 'tenants:read:extra' }), 'tenants:read')).toBe(false);
  });
});

describe('every operation declares the scope of SPEC-EXTENSIONS §5', () => {
  it.each(allRoutes.map((route) => [route.operationId, route.access] as const))('%s needs %s', (operationId, access) => {
    expect(SCOPE_TABLE[operationId], `${operationId} is missing from the table`).toBeDefined();
    expect(access).toBe(SCOPE_TABLE[operationId]);
  });
});

let issuer: OidcIssuer;
let strict: TestService;
let lenient: TestService;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  strict = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
  lenient = await startTestService(
    {},
    { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer, AUTH_REQUIRE_SCOPES: 'false' }) },
  );
});
afterAll(async () => {
  await strict?.close();
  await lenient?.close();
  await issuer?.close();
});

const bearer = async (scope: string | undefined, client = 'scoped-client') => ({
  authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: client, ...(scope === undefined ? {} : { scope }) })}`,
});

/** One request per scope class; each is valid so that, once authorised, it succeeds. */
async function requestsByScope(service: TestService) {
  const admin = await bearer('registry:admin');
  const tenant = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('scope'), name: 'Scoped' }, admin)).body.tenant;
  return {
    'tenants:read': { method: 'GET', path: `/v1/tenants/${tenant.id}`, body: undefined, ok: 200 },
    'tenants:write': { method: 'PATCH', path: `/v1/tenants/${tenant.id}`, body: { name: 'Renamed' }, ok: 200 },
    'keys:verify': { method: 'POST', path: '/v1/internal/api-keys/verify', body: { key: 'trk_nope' }, ok: 200 },
    'claims:read': { method: 'POST', path: '/v1/internal/idp/claims', body: { tenant_id: tenant.id }, ok: 200 },
    'audit:read': { method: 'GET', path: '/v1/audit?limit=1', body: undefined, ok: 200 },
    'audit:write': { method: 'POST', path: '/v1/audit', body: { action: 'invoice.paid', tenant_id: tenant.id }, ok: 201 },
    // No such stream: 404 comes from the handler, so authorisation let the request through.
    'audit:streams': { method: 'DELETE', path: `/v1/audit/streams/${randomUUID()}`, body: undefined, ok: 404 },
    // This service has no Temporal: 503 comes from the handler, so authorisation let the request through.
    'provisioning:operate': { method: 'POST', path: `/v1/tenants/${tenant.id}/idp/resend-invite`, body: {}, ok: [202, 503] },
    'members:read': { method: 'GET', path: `/v1/roles?tenant_id=${tenant.id}`, body: undefined, ok: 200 },
    'members:write': { method: 'POST', path: '/v1/roles', body: { slug: `R${tenant.id.slice(0, 8)}`, name: 'Scoped', tenant_id: tenant.id }, ok: 201 },
  } as const;
}

describe('scopes per route with AUTH_ENABLED', () => {
  it('lets a token call the operations of its scope, and answers 403 forbidden to a valid token without it', async () => {
    const requests = await requestsByScope(strict);
    for (const [scope, request] of Object.entries(requests)) {
      const allowed = await strict.request(request.method, request.path, request.body, await bearer(scope));
      expect([request.ok].flat(), `${scope} allowed`).toContain(allowed.status);
      const otherScope = scope === 'tenants:read' ? 'audit:read' : 'tenants:read';
      const refused = await strict.request(request.method, request.path, request.body, await bearer(otherScope));
      expect(refused.status, `${scope} refused`).toBe(403);
      expect(refused.body).toEqual({ error: 'forbidden', message: expect.stringContaining(scope) });
    }
  });

  it('refuses a token that carries no scope claim at all on every scoped route class', async () => {
    const requests = await requestsByScope(strict);
    for (const request of Object.values(requests)) {
      expect((await strict.request(request.method, request.path, request.body, await bearer(undefined))).status).toBe(403);
    }
  });

  it('lets registry:admin call every operation', async () => {
    const requests = await requestsByScope(strict);
    for (const [scope, request] of Object.entries(requests)) {
      const res = await strict.request(request.method, request.path, request.body, await bearer('registry:admin'));
      expect([request.ok].flat(), scope).toContain(res.status);
    }
  });

  it('keeps audit streams an administrator\'s: audit:write (a product appending its own events) may neither create nor delete one', async () => {
    const admin = await bearer('registry:admin');
    const stream = await strict.request('POST', '/v1/audit/streams', { url: 'https://93.184.215.14/siem', secret: 'stream-secret-0123456789' }, admin);
    expect(stream.status).toBe(201);
    const product = await bearer('audit:write');
    const created = await strict.request('POST', '/v1/audit/streams', { url: 'https://93.184.215.14/mine', secret: 'stream-secret-0123456789' }, product);
    expect(created.status).toBe(403);
    expect(created.body).toEqual({ error: 'forbidden', message: expect.stringContaining('audit:streams') });
    expect((await strict.request('DELETE', `/v1/audit/streams/${stream.body.id}`, undefined, product)).status).toBe(403);
    const listed = await strict.request('GET', '/v1/audit/streams', undefined, await bearer('audit:read'));
    expect(listed.body.items.map((s: { id: string }) => s.id)).toContain(stream.body.id);
    expect((await strict.request('DELETE', `/v1/audit/streams/${stream.body.id}`, undefined, await bearer('audit:streams'))).status).toBe(204);
  });

  it('checks the scope before reading the body: a refused write changes nothing', async () => {
    const slug = uniqueSlug('refused');
    const res = await strict.request('POST', '/v1/tenants', { slug, name: 'Refused' }, await bearer('tenants:read'));
    expect(res.status).toBe(403);
    const found = await strict.request('GET', `/v1/tenants/by-slug/${slug}`, undefined, await bearer('tenants:read'));
    expect(found.status).toBe(404);
  });

  it('keeps the probes public and answers 401, not 403, without a token', async () => {
    expect((await strict.request('GET', '/healthz')).status).toBe(200);
    expect((await strict.request('GET', '/v1/tenants')).status).toBe(401);
  });

  it('with AUTH_REQUIRE_SCOPES=false lets any valid token call every route', async () => {
    const requests = await requestsByScope(lenient);
    for (const [scope, request] of Object.entries(requests)) {
      const res = await lenient.request(request.method, request.path, request.body, await bearer(undefined));
      expect([request.ok].flat(), scope).toContain(res.status);
    }
  });

  it('with AUTH_REQUIRE_SCOPES=false still keeps what every tenant shares (permissions, shared roles) to registry:admin', async () => {
    const anyToken = await bearer(undefined);
    const refusals = [
      await lenient.request('POST', '/v1/permissions', { slug: `lenient-${randomUUID().slice(0, 8)}:use` }, anyToken),
      await lenient.request('POST', '/v1/roles', { slug: `Lenient_${randomUUID().slice(0, 8)}`, name: 'Lenient' }, anyToken),
    ];
    for (const res of refusals) expect(res.body).toEqual({ error: 'forbidden', message: expect.stringContaining('registry:admin') });
    const admin = await bearer('registry:admin');
    expect((await lenient.request('POST', '/v1/roles', { slug: `Lenient_${randomUUID().slice(0, 8)}`, name: 'Lenient' }, admin)).status).toBe(201);
  });
});
