import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';
import { callerOf } from '../../../api/auth/callerBinding.ts';
import { allRoutes } from '../../../api/routes/index.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';
import { idpMetadataXml, selfSignedCertificate } from '../../support/samlIdentityProviderMetadata.ts';
import { randomUUID } from 'node:crypto';

let issuer: OidcIssuer;
let service: TestService;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  service = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
});
afterAll(async () => {
  await service?.close();
  await issuer?.close();
});

const bearer = async (claims: Record<string, unknown> = {}) => ({
  authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: 'product-x', scope: 'registry:admin', ...claims })}`,
});

async function tenantWithKey(product?: string) {
  const admin = await bearer();
  const tenant = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('bound'), name: 'Bound' }, admin)).body.tenant as { id: string; slug: string };
  const key = await service.request('POST', '/v1/api-keys', { tenant_id: tenant.id, name: 'k', ...(product ? { product } : {}) }, admin);
  expect(key.status).toBe(201);
  return { tenant, keyId: key.body.api_key.id as string, plaintext: key.body.plaintext as string };
}

describe('callerOf', () => {
  it('binds a token to the tenants of its tenant_id claim, a string or an array, and to its product', () => {
    expect(callerOf(undefined)).toEqual({ reach: { bound: false } });
    expect(callerOf({ sub: 'x' })).toEqual({ reach: { bound: false } });
    expect(callerOf({ tenant_id: 'a' }).reach).toEqual({ bound: true, tenantIds: new Set(['a']) });
    expect(callerOf({ tenant_id: ['a', 'b'] }).reach).toEqual({ bound: true, tenantIds: new Set(['a', 'b']) });
    expect(callerOf({ product: 'analytics' })).toEqual({ reach: { bound: false }, boundProduct: 'analytics' });
  });

  it('binds a tenant_id claim it cannot read to no tenant at all: never more than the token says', () => {
    for (const claim of [7, { id: 'a' }, ['a', 1], null]) expect(callerOf({ tenant_id: claim }).reach).toEqual({ bound: true, tenantIds: new Set() });
  });
});

/** Operations that find their tenant themselves and check it in their service (each tested below or in its own file). */
const CHECKED_IN_SERVICE = new Set(['appendAuditEvent', 'resolveClaims', 'createRole']);

describe('every operation that names a tenant declares where, so a bound token is checked before its handler runs', () => {
  const fieldsOf = (schema: unknown) => Object.keys((schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
  it.each(allRoutes.map((route) => [route.operationId, route] as const))('%s', (operationId, route) => {
    if (route.path.startsWith('/v1/tenants/{id}')) expect(route.tenantIn, operationId).toBe('params.id');
    else if (fieldsOf(route.query).includes('tenant_id') && !CHECKED_IN_SERVICE.has(operationId) && !route.path.startsWith('/v1/audit')) {
      expect(route.tenantIn, operationId).toBe('query.tenant_id');
    } else if (fieldsOf(route.body).includes('tenant_id') && !CHECKED_IN_SERVICE.has(operationId) && route.acrossTenants === undefined) {
      // An operation across tenants refuses every bound token before its handler, whatever tenant its body names.
      expect(route.tenantIn, operationId).toBe('body.tenant_id');
    }
  });
});

describe('a token bound to tenants, whatever its scopes (registry:admin here)', () => {
  it('reaches its own tenant and gets 404 for any other, by id and by slug, for reads and writes', async () => {
    const mine = await tenantWithKey();
    const other = await tenantWithKey();
    const bound = await bearer({ tenant_id: mine.tenant.id });
    expect((await service.request('GET', `/v1/tenants/${mine.tenant.id}`, undefined, bound)).status).toBe(200);
    expect((await service.request('GET', `/v1/tenants/by-slug/${mine.tenant.slug}`, undefined, bound)).status).toBe(200);
    for (const [method, path, body] of [
      ['GET', `/v1/tenants/${other.tenant.id}`],
      ['GET', `/v1/tenants/by-slug/${other.tenant.slug}`],
      ['PATCH', `/v1/tenants/${other.tenant.id}`, { name: 'Taken' }],
      ['POST', `/v1/tenants/${other.tenant.id}/cancel`, {}],
      ['POST', `/v1/tenants/${other.tenant.id}/archive`, {}],
      ['PUT', `/v1/tenants/${other.tenant.id}/entitlements/analytics`, {}],
      ['GET', `/v1/entitlements?tenant_id=${other.tenant.id}`],
      ['GET', `/v1/api-keys?tenant_id=${other.tenant.id}`],
      ['POST', '/v1/api-keys', { tenant_id: other.tenant.id, name: 'stolen' }],
      ['POST', `/v1/api-keys/${other.keyId}/rotate`, {}],
      ['DELETE', `/v1/api-keys/${other.keyId}`],
      ['POST', '/v1/catalog/trial-request', { tenant_id: other.tenant.id, product: 'analytics' }],
      ['POST', '/v1/internal/idp/claims', { tenant_id: other.tenant.id }],
      ['GET', `/v1/audit?tenant_id=${other.tenant.id}`],
      ['POST', '/v1/audit', { action: 'invoice.paid', tenant_id: other.tenant.id }],
      ['POST', `/v1/tenants/${other.tenant.id}/idp/resend-invite`, {}],
    ] as [string, string, unknown?][]) {
      const res = await service.request(method, path, body, bound);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error, `${method} ${path}`).toBe('not_found');
    }
    // Nothing of the other tenant changed: its key still verifies and its name stands.
    expect((await service.request('POST', '/v1/internal/api-keys/verify', { key: other.plaintext }, await bearer())).body.valid).toBe(true);
    expect((await service.request('GET', `/v1/tenants/${other.tenant.id}`, undefined, await bearer())).body.name).toBe('Bound');
  });

  it('rotating its own key works; rotating another tenant key hands out no working plaintext', async () => {
    const mine = await tenantWithKey();
    const other = await tenantWithKey();
    const bound = await bearer({ tenant_id: [mine.tenant.id] });
    expect((await service.request('POST', `/v1/api-keys/${mine.keyId}/rotate`, {}, bound)).status).toBe(201);
    const stolen = await service.request('POST', `/v1/api-keys/${other.keyId}/rotate`, {}, bound);
    expect(stolen.status).toBe(404);
    expect(stolen.body).not.toHaveProperty('plaintext');
  });

  it('lists only its tenants, and audit pages of its tenant without naming it', async () => {
    const mine = await tenantWithKey();
    await tenantWithKey();
    const bound = await bearer({ tenant_id: mine.tenant.id });
    const list = await service.request('GET', '/v1/tenants?limit=500', undefined, bound);
    expect(list.status).toBe(200);
    expect(list.body.items.map((t: { id: string }) => t.id)).toEqual([mine.tenant.id]);
    const audit = await service.request('GET', '/v1/audit?limit=50', undefined, bound);
    expect(audit.status).toBe(200);
    expect(audit.body.items.length).toBeGreaterThan(0);
    expect(new Set(audit.body.items.map((e: { tenant_id: string }) => e.tenant_id))).toEqual(new Set([mine.tenant.id]));
  });

  it('bound to several tenants, it names the tenant of an audit page; bound to none, it lists nothing', async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    const both = await bearer({ tenant_id: [a.tenant.id, b.tenant.id] });
    expect((await service.request('GET', '/v1/audit', undefined, both)).status).toBe(400);
    expect((await service.request('GET', `/v1/audit?tenant_id=${b.tenant.id}`, undefined, both)).status).toBe(200);
    const listed = (await service.request('GET', '/v1/tenants?limit=500', undefined, both)).body.items.map((t: { id: string }) => t.id);
    expect(listed.sort()).toEqual([a.tenant.id, b.tenant.id].sort());
    const none = await bearer({ tenant_id: 42 });
    expect((await service.request('GET', '/v1/tenants', undefined, none)).body.items).toEqual([]);
  });

  it('may not create tenants, read the chain of every tenant or manage the audit streams: 403', async () => {
    const mine = await tenantWithKey();
    const bound = await bearer({ tenant_id: mine.tenant.id });
    for (const [method, path, body] of [
      ['POST', '/v1/tenants', { slug: uniqueSlug('nope'), name: 'Nope' }],
      ['GET', '/v1/audit/integrity'],
      ['GET', '/v1/audit/streams'],
      ['POST', '/v1/audit/streams', { url: 'https://siem.example/in', secret: 'a-long-enough-secret-value' }],
    ] as [string, string, unknown?][]) {
      const res = await service.request(method, path, body, bound);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message, `${method} ${path}`).toContain('bound to tenants');
    }
  });

  it("gets 404 for another tenant's SSO connection by id, read, changed or deleted, and reads no other tenant's events; 403 on webhook endpoints", async () => {
    const mine = await tenantWithKey();
    const other = await tenantWithKey();
    const admin = await bearer();
    const created = await service.request('POST', `/v1/tenants/${other.tenant.id}/sso-connections`, { protocol: 'saml', metadata_xml: idpMetadataXml({ signing: [selfSignedCertificate(90)] }) }, admin);
    expect(created.status).toBe(201);
    const bound = await bearer({ tenant_id: mine.tenant.id });
    for (const [method, path, body] of [
      ['GET', `/v1/sso-connections/${created.body.id}`],
      ['PATCH', `/v1/sso-connections/${created.body.id}`, { state: 'inactive' }],
      ['DELETE', `/v1/sso-connections/${created.body.id}`],
      ['GET', `/v1/events?tenant_id=${other.tenant.id}`],
      ['PUT', `/v1/tenants/${other.tenant.id}/members/${randomUUID()}/break-glass`, { break_glass: true }],
    ] as [string, string, unknown?][]) {
      expect((await service.request(method, path, body, bound)).status, `${method} ${path}`).toBe(404);
    }
    expect((await service.request('GET', `/v1/sso-connections/${created.body.id}`, undefined, admin)).body.state).toBe(created.body.state);
    const ownFeed = (await service.request('GET', '/v1/events?limit=200', undefined, bound)).body.items as { subject?: string }[];
    expect(ownFeed.length).toBeGreaterThan(0);
    expect(ownFeed.every((event) => event.subject === mine.tenant.id)).toBe(true);
    for (const [method, path, body] of [
      ['GET', '/v1/webhook-endpoints'],
      ['POST', '/v1/webhook-endpoints', { url: 'https://hooks.example/in', types: ['tenant.created'], tenant_id: mine.tenant.id }],
    ] as [string, string, unknown?][]) {
      expect((await service.request(method, path, body, bound)).status, `${method} ${path}`).toBe(403);
    }
  });

  it('appends audit events of its own tenant only, and must name it', async () => {
    const mine = await tenantWithKey();
    const bound = await bearer({ tenant_id: mine.tenant.id });
    expect((await service.request('POST', '/v1/audit', { action: 'invoice.paid', tenant_id: mine.tenant.id }, bound)).status).toBe(201);
    expect((await service.request('POST', '/v1/audit', { action: 'invoice.paid' }, bound)).status).toBe(400);
  });

  it("verify answers NOT_FOUND for another tenant's key, as for a key that does not exist", async () => {
    const mine = await tenantWithKey();
    const other = await tenantWithKey();
    const bound = await bearer({ tenant_id: mine.tenant.id });
    expect((await service.request('POST', '/v1/internal/api-keys/verify', { key: mine.plaintext }, bound)).body).toMatchObject({ valid: true });
    expect((await service.request('POST', '/v1/internal/api-keys/verify', { key: other.plaintext }, bound)).body).toEqual({ valid: false, code: 'NOT_FOUND' });
  });
});

describe('a token bound to a product', () => {
  it("verify checks the token's product even when the request names none; a key for no product still verifies", async () => {
    const analytics = await tenantWithKey('analytics');
    const billing = await tenantWithKey('billing');
    const anyProduct = await tenantWithKey();
    const token = await bearer({ product: 'analytics' });
    const verify = (key: string) => service.request('POST', '/v1/internal/api-keys/verify', { key }, token);
    expect((await verify(analytics.plaintext)).body).toMatchObject({ valid: true, product: 'analytics' });
    expect((await verify(billing.plaintext)).body).toEqual({ valid: false, code: 'WRONG_PRODUCT' });
    expect((await verify(anyProduct.plaintext)).body).toMatchObject({ valid: true });
    // Unbound, the same key verifies when the request names no product.
    expect((await service.request('POST', '/v1/internal/api-keys/verify', { key: billing.plaintext }, await bearer())).body.valid).toBe(true);
  });
});
