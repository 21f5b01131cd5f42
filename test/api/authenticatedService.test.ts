import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../api/auth/authConfig.ts';
import { startOidcIssuer, type OidcIssuer } from '../support/oidcIssuer.ts';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

let issuer: OidcIssuer;
let service: TestService;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  service = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
});
afterAll(async () => {
  await service.close();
  await issuer.close();
});

const bearer = async (claims: Record<string, unknown> = {}) => ({
  authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: 'billing-service', scope: 'registry:admin', ...claims })}`,
});

describe('the service with AUTH_ENABLED=true', () => {
  it('refuses a tenant creation without a token with 401 and writes nothing', async () => {
    const slug = uniqueSlug('noauth');
    const res = await service.request('POST', '/v1/tenants', { slug, name: 'No token' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body.error).toBe('unauthorized');
    const rows = await service.orm.em.fork().execute('select 1 from tenants where slug = ?', [slug]);
    expect(rows).toHaveLength(0);
  });

  it('accepts a valid service token and records its client as the actor of the audit event', async () => {
    const slug = uniqueSlug('authed');
    const res = await service.request('POST', '/v1/tenants', { slug, name: 'With token' }, await bearer());
    expect(res.status).toBe(201);
    const audit = await service.request('GET', `/v1/audit?tenant_id=${res.body.tenant.id}&action=tenant.created`, undefined, await bearer());
    expect(audit.body.items[0]).toMatchObject({ actor_id: 'billing-service', actor_type: 'service', recorded_by: 'billing-service' });
  });

  it("stores the token's client in recorded_by on an append, whatever actor the body names, and the chain still verifies", async () => {
    const res = await service.request('POST', '/v1/audit', { action: 'doc.shared', actor_id: 'tenant-registry', actor_type: 'service' }, await bearer());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ actor_id: 'tenant-registry', actor_type: 'service', recorded_by: 'billing-service' });
    const integrity = await service.request('GET', `/v1/audit/integrity?from_id=${res.body.id}`, undefined, await bearer());
    expect(integrity.body).toMatchObject({ ok: true, checked: expect.any(Number) });
  });

  it('refuses a token for another audience', async () => {
    const res = await service.request('GET', '/v1/catalog', undefined, await bearer({ aud: 'someone-else' }));
    expect(res.status).toBe(401);
  });

  it('keeps /healthz and /readyz public and protects /openapi.json', async () => {
    expect((await service.request('GET', '/healthz')).status).toBe(200);
    expect((await service.request('GET', '/readyz')).status).toBe(200);
    expect((await service.request('GET', '/openapi.json')).status).toBe(401);
  });

  it('answers the API-key verify endpoint 200 valid=false for a bad key when the caller has a token, never 401 for the key', async () => {
    const res = await service.request('POST', '/v1/internal/api-keys/verify', { key: 'trk_nope' }, await bearer());
    expect(res).toMatchObject({ status: 200, body: { valid: false } });
  });
});
