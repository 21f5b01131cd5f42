import { describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';

const ISSUER = 'https://idp.example.com/realms/platform';

describe('loadAuthConfig', () => {
  it('AUTH_ENABLED defaults to false, and disabled mode ignores the other settings', () => {
    expect(loadAuthConfig({})).toEqual({ enabled: false });
    expect(loadAuthConfig({ AUTH_ENABLED: '', AUTH_ALGORITHMS: 'HS256' })).toEqual({ enabled: false });
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('AUTH_ENABLED accepts %s', (value, enabled) => {
    expect(loadAuthConfig({ AUTH_ENABLED: value, AUTH_ISSUER: ISSUER }).enabled).toBe(enabled);
  });

  it('an unrecognised AUTH_ENABLED value refuses to start rather than guessing', () => {
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'yes', AUTH_ISSUER: ISSUER })).toThrow(
      /AUTH_ENABLED must be one of true, false, 1, 0/,
    );
  });

  it('AUTH_ENABLED=true without AUTH_ISSUER refuses to start, naming AUTH_ISSUER', () => {
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true' })).toThrow(/AUTH_ISSUER is required when AUTH_ENABLED is true/);
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: '  ' })).toThrow(/AUTH_ISSUER is required/);
  });

  it.each(['realms/platform', 'ftp://idp.example.com/realms/platform', 'not a url'])(
    'AUTH_ISSUER must be an absolute http(s) URL: %s is refused',
    (issuer) => {
      expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer })).toThrow(
        /AUTH_ISSUER must be an absolute http\(s\) URL/,
      );
    },
  );

  it('AUTH_REQUIRE_SCOPES other than a switch value is refused', () => {
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: ISSUER, AUTH_REQUIRE_SCOPES: 'maybe' })).toThrow(
      /AUTH_REQUIRE_SCOPES must be one of true, false, 1, 0/,
    );
  });

  it('AUTH_ISSUER with a query or fragment is refused', () => {
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: `${ISSUER}?tenant=a` })).toThrow(
      /AUTH_ISSUER must not contain a query or fragment/,
    );
  });

  it('defaults when enabled: audience tenant-registry, asymmetric algorithms, 30 s tolerance, bounded HTTP', () => {
    expect(loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: ISSUER })).toEqual({
      enabled: true,
      issuer: ISSUER,
      audience: 'tenant-registry',
      algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'],
      clockToleranceSeconds: 30,
      jwksCooldownMs: 30_000,
      httpTimeoutMs: 3_000,
      requireScopes: true,
    });
  });

  it('explicit settings override the defaults', () => {
    const config = loadAuthConfig({
      AUTH_ENABLED: '1',
      AUTH_ISSUER: ISSUER,
      AUTH_AUDIENCE: 'tenant-registry-staging',
      AUTH_ALGORITHMS: ' RS256 , ES256 ',
      AUTH_CLOCK_TOLERANCE_SECONDS: '5',
      AUTH_JWKS_COOLDOWN_MS: '60000',
      AUTH_HTTP_TIMEOUT_MS: '1500',
      AUTH_REQUIRE_SCOPES: 'false',
    });
    expect(config).toEqual({
      enabled: true,
      issuer: ISSUER,
      audience: 'tenant-registry-staging',
      algorithms: ['RS256', 'ES256'],
      clockToleranceSeconds: 5,
      jwksCooldownMs: 60_000,
      httpTimeoutMs: 1_500,
      requireScopes: false,
    });
  });

  it.each(['HS256', 'RS256,HS256', 'RS256,none'])(
    'AUTH_ALGORITHMS with a symmetric or unsigned algorithm is refused: %s',
    (algorithms) => {
      expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: ISSUER, AUTH_ALGORITHMS: algorithms })).toThrow(
        /AUTH_ALGORITHMS must list only asymmetric algorithms .*refused: (HS256|none)$/,
      );
    },
  );

  it('AUTH_ALGORITHMS that lists nothing is refused', () => {
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: ISSUER, AUTH_ALGORITHMS: ' , ' })).toThrow(
      /AUTH_ALGORITHMS must list at least one algorithm/,
    );
  });

  it.each([
    ['AUTH_CLOCK_TOLERANCE_SECONDS', '-1', /AUTH_CLOCK_TOLERANCE_SECONDS must be a non-negative integer/],
    ['AUTH_JWKS_COOLDOWN_MS', '30s', /AUTH_JWKS_COOLDOWN_MS must be a non-negative integer/],
    ['AUTH_HTTP_TIMEOUT_MS', '0', /AUTH_HTTP_TIMEOUT_MS must be a positive integer/],
  ])('%s=%s is refused', (name, value, message) => {
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: ISSUER, [name]: value })).toThrow(message);
  });

  it('every problem is named in one error, so one restart fixes them all', () => {
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ALGORITHMS: 'HS512', AUTH_HTTP_TIMEOUT_MS: 'soon' })).toThrow(
      /AUTH_ISSUER is required.*; AUTH_ALGORITHMS must list only asymmetric.*; AUTH_HTTP_TIMEOUT_MS must be a positive integer/,
    );
  });
});
