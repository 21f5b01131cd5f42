import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Router, { type RouterMiddleware } from '@koa/router';
import { base64url, generateKeyPair } from 'jose';
import Koa from 'koa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listenerOf } from '../../../platform/httpServer.ts';
import { loadAuthConfig, type AuthConfig, type EnabledAuthConfig } from '../../../api/auth/authConfig.ts';
import { createAuthMiddleware, publicPathsOf, type AuthState } from '../../../api/auth/authMiddleware.ts';
import { IssuerUnavailableError } from '../../../api/auth/oidcTokenVerifier.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';

type Service = {
  url: string;
  /** Route handlers that executed, in order. */
  ran: string[];
  /** Errors the middleware logged through ctx.state.log. */
  reported: unknown[];
  get(path: string, authorization?: string): Promise<Response>;
  close(): Promise<void>;
};

/** The middleware in front of stand-ins for the service's routes, served over real HTTP. */
async function startService(config: AuthConfig): Promise<Service> {
  const ran: string[] = [];
  const route = (name: string, body: (state: AuthState) => unknown): RouterMiddleware<AuthState> => (ctx) => {
    ran.push(name);
    ctx.body = body(ctx.state);
  };
  const router = new Router<AuthState>()
    .get('/healthz', route('healthz', () => ({ status: 'ok' })))
    .get('/readyz', route('readyz', () => ({ status: 'ready' })))
    .get('/openapi.json', route('openapi', () => ({ openapi: '3.1.0' })))
    .get('/v1/tenants', route('tenants', (state) => ({ items: [], principal: state.principal ?? null })));

  const reported: unknown[] = [];
  const app = new Koa<AuthState>()
    .use((ctx, next) => {
      ctx.state.log = { error: ({ err }) => void reported.push(err) };
      return next();
    })
    .use(createAuthMiddleware(config, new Set(['/healthz', '/readyz'])))
    .use(router.routes());
  const server = createServer(listenerOf(app.callback()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    ran,
    reported,
    get: (path, authorization) => fetch(`${url}${path}`, { headers: authorization === undefined ? {} : { authorization } }),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const BEARER_CHALLENGE = 'Bearer';
const INVALID_TOKEN_CHALLENGE = 'Bearer error="invalid_token"';

async function expectRefused(service: Service, response: Response, challenge: string, reason: RegExp): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(challenge);
  expect(await response.json()).toEqual({ error: 'unauthorized', message: expect.stringMatching(reason) });
  expect(service.ran).toEqual([]);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('inbound authentication with AUTH_ENABLED=true', () => {
  let issuer: OidcIssuer;
  let service: Service;

  beforeEach(async () => {
    issuer = await startOidcIssuer();
  });
  afterEach(async () => {
    await service?.close();
    await issuer.close();
  });

  /** Config as the service loads it from the environment, with test-sized overrides. */
  const start = async (overrides: Partial<EnabledAuthConfig> = {}) => {
    const config = loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer });
    service = await startService({ ...(config as EnabledAuthConfig), ...overrides });
  };
  const getTenants = (token: string) => service.get('/v1/tenants', `Bearer ${token}`);
  const expectTokenRefused = async (token: string, reason: RegExp) =>
    expectRefused(service, await getTenants(token), INVALID_TOKEN_CHALLENGE, reason);
  const reportedCause = (message: string | RegExp) =>
    expect.objectContaining({ cause: expect.objectContaining({ message: expect.stringMatching(message) }) });

  it('a valid token passes and its claims become ctx.state.principal', async () => {
    await start();
    const response = await getTenants(await issuer.sign({ sub: 'billing-service' }));

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      principal: { sub: 'billing-service', iss: issuer.issuer, aud: 'tenant-registry' },
    });
    expect(service.ran).toEqual(['tenants']);
  });

  it('a valid token signed with another allowed algorithm (ES256) passes', async () => {
    await start();
    expect((await getTenants(await issuer.sign({}, { alg: 'ES256' }))).status).toBe(200);
    expect(service.ran).toEqual(['tenants']);
  });

  it('an expired token is refused', async () => {
    await start();
    await expectTokenRefused(await issuer.sign({ iat: nowSeconds() - 600, exp: nowSeconds() - 120 }), /expired/);
  });

  it('a token expired within the clock tolerance still passes', async () => {
    await start({ clockToleranceSeconds: 30 });
    expect((await getTenants(await issuer.sign({ iat: nowSeconds() - 600, exp: nowSeconds() - 10 }))).status).toBe(200);
  });

  it('a token without exp is refused', async () => {
    await start();
    await expectTokenRefused(await issuer.sign({ exp: undefined }), /lacks the exp claim/);
  });

  it('a token not yet valid (nbf beyond the clock tolerance) is refused', async () => {
    await start({ clockToleranceSeconds: 30 });
    await expectTokenRefused(await issuer.sign({ nbf: nowSeconds() + 120 }), /not yet valid/);
  });

  it('a token for another audience is refused', async () => {
    await start();
    await expectTokenRefused(await issuer.sign({ aud: 'billing-service' }), /audience not accepted/);
  });

  it('a token from another issuer is refused', async () => {
    await start();
    await expectTokenRefused(await issuer.sign({ iss: 'http://127.0.0.1:1/realms/other' }), /issuer not accepted/);
  });

  it('a token with a bad signature (foreign key, known kid) is refused', async () => {
    await start();
    const foreign = await generateKeyPair('RS256');
    await expectTokenRefused(await issuer.sign({}, { key: foreign.privateKey, kid: issuer.kid('RS256') }), /signature invalid/);
    // A bad token is the caller's problem, not an operational one.
    expect(service.reported).toEqual([]);
  });

  it('an unsigned token (alg none) is refused without contacting the issuer', async () => {
    await start();
    const encode = (part: object) => base64url.encode(JSON.stringify(part));
    const claims = { iss: issuer.issuer, aud: 'tenant-registry', sub: 'attacker', exp: nowSeconds() + 300 };

    await expectTokenRefused(`${encode({ alg: 'none', typ: 'JWT', kid: issuer.kid() })}.${encode(claims)}.`, /algorithm not allowed/);
    expect(issuer.fetches).toEqual({ discovery: 0, jwks: 0 });
  });

  it('an HS256 token signed with the issuer public key as HMAC secret (key confusion) is refused', async () => {
    await start();
    const secret = new TextEncoder().encode(await issuer.publicKeyPem('RS256'));

    await expectTokenRefused(await issuer.sign({}, { alg: 'HS256', key: secret, kid: issuer.kid('RS256') }), /algorithm not allowed/);
    expect(issuer.fetches).toEqual({ discovery: 0, jwks: 0 });
  });

  it('a token whose algorithm is outside AUTH_ALGORITHMS is refused', async () => {
    await start({ algorithms: ['RS256'] });
    await expectTokenRefused(await issuer.sign({}, { alg: 'ES256' }), /algorithm not allowed/);
  });

  it('an unknown key id is refused, refetching the JWKS at most once per cooldown', async () => {
    await start({ jwksCooldownMs: 300 });
    expect((await getTenants(await issuer.sign())).status).toBe(200);
    service.ran.length = 0;
    await sleep(350);

    const unknownKid = await issuer.sign({}, { kid: 'not-published' });
    for (let attempt = 0; attempt < 5; attempt++) await expectTokenRefused(unknownKid, /signing key not recognised/);
    expect(issuer.fetches.jwks).toBe(2);
  });

  it('a key rotation at the issuer is picked up without restart', async () => {
    await start({ jwksCooldownMs: 200 });
    const beforeRotation = await issuer.sign();
    expect((await getTenants(beforeRotation)).status).toBe(200);

    const newKid = await issuer.rotate();
    await sleep(250);
    const afterRotation = await issuer.sign();

    expect((await getTenants(afterRotation)).status).toBe(200);
    expect(issuer.kid('RS256')).toBe(newKid);
    expect(issuer.fetches).toEqual({ discovery: 1, jwks: 2 });
    service.ran.length = 0;
    // The retired key left the JWKS, so its tokens stop verifying.
    await expectTokenRefused(beforeRotation, /signing key not recognised/);
  });

  it('a missing Authorization header is refused', async () => {
    await start();
    await expectRefused(service, await service.get('/v1/tenants'), BEARER_CHALLENGE, /Bearer token is required/);
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz', BEARER_CHALLENGE, /Bearer token is required/],
    ['Bearer without a token', 'Bearer', BEARER_CHALLENGE, /Bearer token is required/],
    ['Bearer with two tokens', 'Bearer a.b.c d.e.f', BEARER_CHALLENGE, /Bearer token is required/],
    ['characters outside the b64token alphabet', 'Bearer %%%.e30.sig', BEARER_CHALLENGE, /Bearer token is required/],
    ['a token that is not a JWT', 'Bearer a.b', INVALID_TOKEN_CHALLENGE, /token malformed/],
    ['a JWT with a garbage header', 'Bearer Zm9v.e30.c2ln', INVALID_TOKEN_CHALLENGE, /token malformed/],
  ])('a malformed Authorization header is refused: %s', async (_case, authorization, challenge, reason) => {
    await start();
    await expectRefused(service, await service.get('/v1/tenants', authorization), challenge, reason);
    expect(issuer.fetches).toEqual({ discovery: 0, jwks: 0 });
  });

  it('/openapi.json requires a token like every non-probe route', async () => {
    await start();
    await expectRefused(service, await service.get('/openapi.json'), BEARER_CHALLENGE, /Bearer token is required/);

    expect((await service.get('/openapi.json', `Bearer ${await issuer.sign()}`)).status).toBe(200);
    expect(service.ran).toEqual(['openapi']);
  });

  it('the public routes /healthz and /readyz stay open without a token', async () => {
    await start();
    expect((await service.get('/healthz')).status).toBe(200);
    expect((await service.get('/readyz', 'Bearer not-a-jwt')).status).toBe(200);
    expect(service.ran).toEqual(['healthz', 'readyz']);
  });

  it.each(['discovery', 'jwks'] as const)('a hanging issuer (%s) fails requests with 401 within the timeout', async (endpoint) => {
    await start({ httpTimeoutMs: 300 });
    issuer.setFault(endpoint, { delayMs: 10_000 });
    const token = await issuer.sign();

    const startedAt = performance.now();
    await expectTokenRefused(token, /identity provider unavailable/);
    const elapsedMs = performance.now() - startedAt;

    expect(elapsedMs).toBeGreaterThanOrEqual(250);
    expect(elapsedMs).toBeLessThan(2_000);
    expect(service.reported).toEqual([expect.any(IssuerUnavailableError)]);
  });

  it('a failed discovery is retried on a later request', async () => {
    await start();
    issuer.setFault('discovery', { status: 503 });
    await expectTokenRefused(await issuer.sign(), /identity provider unavailable/);
    expect(service.reported).toEqual([reportedCause('OIDC discovery answered HTTP 503')]);

    issuer.setFault('discovery', undefined);
    expect((await getTenants(await issuer.sign())).status).toBe(200);
    expect(issuer.fetches.discovery).toBe(2);
  });

  it('a discovery document naming another issuer is not trusted', async () => {
    await start();
    issuer.advertiseIssuer('https://attacker.example/realms/test');

    await expectTokenRefused(await issuer.sign(), /identity provider unavailable/);
    expect(issuer.fetches.jwks).toBe(0);
    expect(service.reported).toEqual([reportedCause(/names issuer https:\/\/attacker\.example/)]);
  });
});

describe('inbound authentication with AUTH_ENABLED=false', () => {
  let service: Service;
  afterEach(async () => {
    await service.close();
  });

  it('disabled mode lets every route through without a token', async () => {
    service = await startService(loadAuthConfig({}));
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/v1/tenants']) {
      expect((await service.get(path)).status).toBe(200);
    }
    expect((await service.get('/v1/tenants', 'Bearer not-a-jwt')).status).toBe(200);
    expect(service.ran).toEqual(['healthz', 'readyz', 'openapi', 'tenants', 'tenants']);
  });
});

describe('publicPathsOf', () => {
  const routes = [
    { path: '/healthz', access: 'public' },
    { path: '/v1/tenants', access: 'tenants:read' },
    { path: '/idp-sim/action-tokens/{token}', access: 'public' },
    { path: '/v1/tenants/{id}', access: 'tenants:read' },
  ];

  it("needs no token for a public operation's path, each {parameter} one whole segment, and for nothing else", () => {
    const open = publicPathsOf(routes);
    expect(open.has('/healthz')).toBe(true);
    expect(open.has('/idp-sim/action-tokens/abc')).toBe(true);
    expect(open.has('/idp-sim/action-tokens/abc/more')).toBe(false);
    expect(open.has('/idp-sim/action-tokens/')).toBe(false);
    expect(open.has('/healthz/x')).toBe(false);
    expect(open.has('/v1/tenants')).toBe(false);
    expect(open.has('/v1/tenants/abc')).toBe(false);
  });

  it('needs no token beneath a prefix whose routes authenticate their callers themselves', () => {
    const open = publicPathsOf(routes, ['/scim/v2/']);
    expect(open.has('/scim/v2/directories/d1/Users')).toBe(true);
    expect(open.has('/scim/v1/x')).toBe(false);
    expect(open.has('/v1/tenants')).toBe(false);
  });
});
