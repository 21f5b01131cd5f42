import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../api/auth/authConfig.ts';
import { CALLER_CLIENT_ID, CALLER_NO_AUDIENCE_CLIENT_ID } from '../../platform/keycloakServer.ts';
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
