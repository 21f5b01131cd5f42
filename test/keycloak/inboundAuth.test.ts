import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../api/auth/authConfig.ts';
import { CALLER_CLIENT_ID, CALLER_NO_AUDIENCE_CLIENT_ID, CLAIMS_MAPPER_CLIENT_ID, PRODUCT_CLIENT_ID } from '../../platform/keycloakServer.ts';
import { keycloakContext } from '../support/keycloakContext.ts';
import { serviceAccountToken } from '../support/serviceAccountToken.ts';
import { startTestService, type TestService } from '../support/testService.ts';

/** AUTH_ENABLED=true with the run's Keycloak realm as the issuer: discovery, JWKS and Keycloak-issued tokens. */
let service: TestService;
beforeAll(async () => {
  const authConfig = loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: keycloakContext().realmUrl });
  service = await startTestService({}, { authConfig });
});
afterAll(() => service?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('inbound service tokens issued by Keycloak', () => {
  it('accepts a service-account token carrying the audience tenant-registry', async () => {
    const token = await serviceAccountToken(CALLER_CLIENT_ID, keycloakContext().secrets.caller);
    const res = await service.request('GET', '/v1/catalog', undefined, bearer(token));
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.items)).toBe(true);
  });

  it('refuses a valid token of the same realm without that audience (401)', async () => {
    const token = await serviceAccountToken(CALLER_NO_AUDIENCE_CLIENT_ID, keycloakContext().secrets.callerNoAudience);
    const res = await service.request('GET', '/v1/catalog', undefined, bearer(token));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    // Keycloak leaves aud out altogether when no audience applies; either way the refusal names the audience.
    expect(res.body).toEqual({ error: 'unauthorized', message: expect.stringMatching(/\baud(ience)?\b/) });
  });

  it('refuses a request without a token and keeps the probes public', async () => {
    expect((await service.request('GET', '/v1/catalog')).status).toBe(401);
    expect((await service.request('GET', '/healthz')).status).toBe(200);
  });
});

describe("the realm's clients, each with only the scopes its job needs (SPEC-EXTENSIONS §5)", () => {
  const scopesOf = (token: string) => String(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).scope).split(' ');

  it('the operator client carries registry:admin and may call everything', async () => {
    const token = await serviceAccountToken(CALLER_CLIENT_ID, keycloakContext().secrets.caller);
    expect(scopesOf(token)).toContain('registry:admin');
    const created = await service.request('POST', '/v1/tenants', { slug: `scoped-${Date.now().toString(36)}`, name: 'Scoped' }, bearer(token));
    expect(created.status).toBe(201);
  });

  it("the claims mapper's client reads claims and nothing else", async () => {
    const operator = await serviceAccountToken(CALLER_CLIENT_ID, keycloakContext().secrets.caller);
    const tenant = (await service.request('POST', '/v1/tenants', { slug: `claims-${Date.now().toString(36)}`, name: 'Claims' }, bearer(operator))).body.tenant;
    const token = await serviceAccountToken(CLAIMS_MAPPER_CLIENT_ID, keycloakContext().secrets.claimsMapper);
    expect(scopesOf(token)).toContain('claims:read');
    expect(scopesOf(token)).not.toContain('registry:admin');
    const claims = await service.request('POST', '/v1/internal/idp/claims', { tenant_id: tenant.id }, bearer(token));
    expect(claims).toMatchObject({ status: 200, body: { tenant_id: tenant.id } });
    expect((await service.request('GET', `/v1/tenants/${tenant.id}`, undefined, bearer(token))).status).toBe(403);
    expect((await service.request('POST', '/v1/internal/api-keys/verify', { key: 'trk_x' }, bearer(token))).status).toBe(403);
    expect((await service.request('POST', `/v1/tenants/${tenant.id}/cancel`, {}, bearer(token))).status).toBe(403);
    expect((await service.request('GET', '/v1/audit', undefined, bearer(token))).status).toBe(403);
  });

  it("a product's client verifies keys and nothing else", async () => {
    const token = await serviceAccountToken(PRODUCT_CLIENT_ID, keycloakContext().secrets.product);
    expect(scopesOf(token)).toContain('keys:verify');
    const verify = await service.request('POST', '/v1/internal/api-keys/verify', { key: 'trk_nope' }, bearer(token));
    expect(verify).toMatchObject({ status: 200, body: { valid: false } });
    expect((await service.request('GET', '/v1/tenants', undefined, bearer(token))).status).toBe(403);
    expect((await service.request('POST', '/v1/internal/idp/claims', { tenant_slug: 'x' }, bearer(token))).status).toBe(403);
    expect((await service.request('POST', '/v1/api-keys', { tenant_id: '00000000-0000-4000-8000-000000000000', name: 'x' }, bearer(token))).status).toBe(403);
  });
});
