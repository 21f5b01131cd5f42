/** Inbound-authentication settings read from the environment; an enabled but incomplete configuration refuses to load. */

export type EnabledAuthConfig = {
  enabled: true;
  issuer: string;
  audience: string;
  algorithms: string[];
  clockToleranceSeconds: number;
  jwksCooldownMs: number;
  httpTimeoutMs: number;
  /** AUTH_REQUIRE_SCOPES: each operation needs its scope (SPEC-EXTENSIONS §5); false lets any valid token call every route. */
  requireScopes: boolean;
};

export type AuthConfig = { enabled: false } | EnabledAuthConfig;

/** Only asymmetric algorithms: keys come from a public JWKS, so HS* (public key as HMAC secret) and none must never verify. */
const ASYMMETRIC_ALGORITHMS = new Set([
  'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519',
]);

/** Every setting read when AUTH_ENABLED is true, with its default; AUTH_ISSUER has none. */
const DEFAULTS = {
  AUTH_ISSUER: undefined,
  AUTH_AUDIENCE: 'tenant-registry',
  AUTH_ALGORITHMS: 'RS256,RS384,RS512,PS256,PS384,PS512,ES256,ES384,ES512,EdDSA',
  AUTH_CLOCK_TOLERANCE_SECONDS: '30',
  AUTH_JWKS_COOLDOWN_MS: '30000',
  AUTH_HTTP_TIMEOUT_MS: '3000',
  AUTH_REQUIRE_SCOPES: 'true',
} satisfies Record<string, string | undefined>;

type SettingName = keyof typeof DEFAULTS;

const SWITCH_VALUES: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

/** Throws an Error naming every missing or invalid setting, so the service can refuse to start (fail closed). */
export function loadAuthConfig(env: NodeJS.ProcessEnv): AuthConfig {
  const enabled = SWITCH_VALUES[blankToUndefined(env.AUTH_ENABLED)?.toLowerCase() ?? 'false'];
  if (enabled === undefined) {
    throw new Error('Invalid authentication configuration: AUTH_ENABLED must be one of true, false, 1, 0');
  }
  if (!enabled) return { enabled: false };

  const problems: string[] = [];
  // A setting with a problem yields its placeholder, which is never used: any problem throws below.
  const read = <T>(name: SettingName, parse: (raw: string) => T, placeholder: T): T => {
    const raw = blankToUndefined(env[name]) ?? DEFAULTS[name];
    try {
      if (raw === undefined) throw new InvalidSetting('is required when AUTH_ENABLED is true');
      return parse(raw);
    } catch (err) {
      if (!(err instanceof InvalidSetting)) throw err;
      problems.push(`${name} ${err.message}`);
      return placeholder;
    }
  };

  const config: EnabledAuthConfig = {
    enabled: true,
    issuer: read('AUTH_ISSUER', parseIssuer, ''),
    audience: read('AUTH_AUDIENCE', (raw) => raw, ''),
    algorithms: read('AUTH_ALGORITHMS', parseAlgorithms, []),
    clockToleranceSeconds: read('AUTH_CLOCK_TOLERANCE_SECONDS', parseNonNegativeInteger, 0),
    jwksCooldownMs: read('AUTH_JWKS_COOLDOWN_MS', parseNonNegativeInteger, 0),
    httpTimeoutMs: read('AUTH_HTTP_TIMEOUT_MS', parsePositiveInteger, 0),
    requireScopes: read('AUTH_REQUIRE_SCOPES', parseSwitch, true),
  };
  if (problems.length > 0) throw new Error(`Invalid authentication configuration (AUTH_ENABLED=true): ${problems.join('; ')}`);
  return config;
}

class InvalidSetting extends Error {}

function blankToUndefined(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function parseIssuer(raw: string): string {
  const url = URL.parse(raw);
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') throw new InvalidSetting('must be an absolute http(s) URL');
  // OIDC Discovery 1.0 §2: an issuer identifier has no query or fragment.
  if (url.search || url.hash) throw new InvalidSetting('must not contain a query or fragment');
  return raw;
}

function parseAlgorithms(raw: string): string[] {
  const algorithms = raw.split(',').map((alg) => alg.trim()).filter(Boolean);
  const refused = algorithms.filter((alg) => !ASYMMETRIC_ALGORITHMS.has(alg));
  if (refused.length > 0) {
    const allowed = [...ASYMMETRIC_ALGORITHMS].join(', ');
    throw new InvalidSetting(`must list only asymmetric algorithms (${allowed}); refused: ${refused.join(', ')}`);
  }
  if (algorithms.length === 0) throw new InvalidSetting('must list at least one algorithm');
  return algorithms;
}

function parseSwitch(raw: string): boolean {
  const value = SWITCH_VALUES[raw.toLowerCase()];
  if (value === undefined) throw new InvalidSetting('must be one of true, false, 1, 0');
  return value;
}

function parseNonNegativeInteger(raw: string): number {
  if (!/^\d+$/.test(raw)) throw new InvalidSetting('must be a non-negative integer');
  return Number(raw);
}

function parsePositiveInteger(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) === 0) throw new InvalidSetting('must be a positive integer');
  return Number(raw);
}
