import { generateKeyPair } from 'jose';
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

/** One client's default budget: a burst of 2, refilled slowly enough that no token comes back during a test. */
const SLOW_LIMITS = { RATE_LIMIT_PER_SECOND: 0.1, RATE_LIMIT_BURST: 2, RATE_LIMIT_ADDRESS_CLIENTS: 3, TRUST_PROXY: true };
/** What one address may send before its tokens are verified: three clients' bursts. */
const ADDRESS_BURST = 6;

let byAddress: TestService;
let byClient: TestService;
let beforeAuth: TestService;
let issuer: OidcIssuer;
let beforeAuthIssuer: OidcIssuer;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  beforeAuthIssuer = await startOidcIssuer();
  byAddress = await startTestService(LIMITS);
  byClient = await startTestService(LIMITS, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
  // TRUST_PROXY: the test names each request's address in X-Forwarded-For.
  beforeAuth = await startTestService(SLOW_LIMITS, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: beforeAuthIssuer.issuer }) });
});
afterAll(async () => {
  await byAddress?.close();
  await byClient?.close();
  await beforeAuth?.close();
  await issuer?.close();
  await beforeAuthIssuer?.close();
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

  it('before the token is verified, an address past RATE_LIMIT_ADDRESS_CLIENTS budgets gets 429 and costs no verification', async () => {
    // With discovery failing, every verification asks the issuer again: one discovery fetch per token verified.
    beforeAuthIssuer.setFault('discovery', { status: 500 });
    try {
      const token = await beforeAuthIssuer.sign({ azp: 'flooding-service', scope: 'registry:admin' });
      const from = (address: string) => ({ authorization: `Bearer ${token}`, 'x-forwarded-for': address });
      const fetchesBefore = beforeAuthIssuer.fetches.discovery;
      const flood = await statuses(beforeAuth, 10, () => beforeAuth.request('GET', '/v1/catalog', undefined, from('203.0.113.7')));
      expect(flood).toEqual([...Array(ADDRESS_BURST).fill(401), ...Array(10 - ADDRESS_BURST).fill(429)]);
      expect(beforeAuthIssuer.fetches.discovery - fetchesBefore).toBe(ADDRESS_BURST);
      // Another address keeps its own budget: its token is verified (and refused, the issuer failing).
      expect((await beforeAuth.request('GET', '/v1/catalog', undefined, from('203.0.113.8'))).status).toBe(401);
      expect(beforeAuthIssuer.fetches.discovery - fetchesBefore).toBe(ADDRESS_BURST + 1);
    } finally {
      beforeAuthIssuer.setFault('discovery', undefined);
    }
  });

  it("keys the limit before authentication by address, never by the token's unverified client: forged tokens naming a client do not spend its budget", async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const forged = { authorization: `Bearer ${await beforeAuthIssuer.sign({ azp: 'victim-service', scope: 'registry:admin' }, { key: privateKey })}`, 'x-forwarded-for': '198.51.100.9' };
    const flood = await statuses(beforeAuth, ADDRESS_BURST + 2, () => beforeAuth.request('GET', '/v1/catalog', undefined, forged));
    expect(flood).toEqual([...Array(ADDRESS_BURST).fill(401), 429, 429]);
    const victim = { authorization: `Bearer ${await beforeAuthIssuer.sign({ azp: 'victim-service', scope: 'registry:admin' })}`, 'x-forwarded-for': '198.51.100.10' };
    expect(await statuses(beforeAuth, 3, () => beforeAuth.request('GET', '/v1/catalog', undefined, victim))).toEqual([200, 200, 429]);
  });

  it('declares 429 in the OpenAPI document when limits are configured, and not otherwise', async () => {
    expect((buildOpenApiDocument(allRoutes, { authEnabled: false }) as any).paths['/v1/catalog'].get.responses['429']).toBeUndefined();
    const document = buildOpenApiDocument(allRoutes, { authEnabled: false, rateLimited: true }) as any;
    expect(document.paths['/v1/catalog'].get.responses['429']).toBeDefined();
    expect(document.paths['/healthz'].get.responses['429']).toBeUndefined();
  });
});
