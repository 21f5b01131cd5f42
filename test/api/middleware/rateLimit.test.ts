import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';
import { buildOpenApiDocument } from '../../../api/openApiDocument.ts';
import { allRoutes } from '../../../api/routes/index.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { startTestService, type TestService } from '../../support/testService.ts';

const LIMITS = {
  RATE_LIMIT_PER_SECOND: 2,
  RATE_LIMIT_BURST: 3,
  RATE_LIMIT_VERIFY_PER_SECOND: 2,
  RATE_LIMIT_VERIFY_BURST: 4,
};

let byAddress: TestService;
let byClient: TestService;
let issuer: OidcIssuer;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  byAddress = await startTestService(LIMITS);
  byClient = await startTestService(LIMITS, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
});
afterAll(async () => {
  await byAddress?.close();
  await byClient?.close();
  await issuer?.close();
});

const statuses = async (service: TestService, n: number, request: () => Promise<{ status: number }>) => {
  const seen: number[] = [];
  for (let i = 0; i < n; i++) seen.push((await request()).status);
  return seen;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('per-client rate limits', () => {
  it('answers 429 rate_limited with Retry-After past the burst, and serves again once tokens refilled', async () => {
    expect(await statuses(byAddress, 3, () => byAddress.request('GET', '/v1/catalog'))).toEqual([200, 200, 200]);
    const refused = await byAddress.request('GET', '/v1/catalog');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await sleep(Number(refused.headers.get('retry-after')) * 1000);
    expect((await byAddress.request('GET', '/v1/catalog')).status).toBe(200);
  });

  it('gives verify a budget of its own and never limits the probes', async () => {
    await statuses(byAddress, 5, () => byAddress.request('GET', '/v1/catalog'));
    expect((await byAddress.request('GET', '/v1/catalog')).status).toBe(429);
    const verifies = await statuses(byAddress, 5, () => byAddress.request('POST', '/v1/internal/api-keys/verify', { key: 'trk_nope' }));
    expect(verifies).toEqual([200, 200, 200, 200, 429]);
    expect(await statuses(byAddress, 10, () => byAddress.request('GET', '/healthz'))).toEqual(Array(10).fill(200));
  });

  it("with authentication on, keys the budget by the token's client: one client's flood does not refuse another", async () => {
    const token = async (client: string) => ({
      authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: client, scope: 'registry:admin' })}`,
    });
    const noisy = await token('noisy-service');
    const quiet = await token('quiet-service');
    expect(await statuses(byClient, 4, () => byClient.request('GET', '/v1/catalog', undefined, noisy))).toEqual([200, 200, 200, 429]);
    expect((await byClient.request('GET', '/v1/catalog', undefined, quiet)).status).toBe(200);
  });

  it('declares 429 in the OpenAPI document when limits are configured, and not otherwise', async () => {
    expect((buildOpenApiDocument(allRoutes, { authEnabled: false }) as any).paths['/v1/catalog'].get.responses['429']).toBeUndefined();
    const document = buildOpenApiDocument(allRoutes, { authEnabled: false, rateLimited: true }) as any;
    expect(document.paths['/v1/catalog'].get.responses['429']).toBeDefined();
    expect(document.paths['/healthz'].get.responses['429']).toBeUndefined();
  });
});
