import { resolve } from 'node:path';
import { settingsHoldingPlaceholders } from './placeholderSecrets.ts';
import { z } from 'zod';

const projectRoot = resolve(import.meta.dirname, '..');

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));
const integer = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** AUTH_ENABLED's values that turn authentication on (api/auth/authConfig.ts reads the switch itself). */
const AUTH_ON = new Set(['true', '1']);

/** An absolute http(s) URL that paths can be appended to: no query, no fragment. */
const isBaseUrl = (text: string): boolean => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol) && !/[?#]/.test(text);

/** Every setting of the service with its default; README's configuration table mirrors this. */
const Settings = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /**
   * A listener of the API's own on HOST for /v1/internal/* (the identity provider's calls, products' key
   * verifications), which PORT then answers 404, so a network policy can keep those calls off the public path. 0:
   * PORT serves them too.
   */
  INTERNAL_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Loopback unless told otherwise: the container image sets 0.0.0.0, where the network is the container's own. */
  HOST: z.string().default('127.0.0.1'),
  /** Trust X-Forwarded-For for the audit log's source_ip and rate limits; only behind a proxy that sets it. */
  TRUST_PROXY: z.enum(['true', 'false', '1', '0']).default('false').transform((v) => v === 'true' || v === '1'),
  /**
   * How many proxies of ours stand in front (with TRUST_PROXY): the client is the address that many entries from the
   * right of X-Forwarded-For, never the leftmost, which the client itself writes.
   */
  TRUST_PROXY_HOPS: integer(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalText,
  /**
   * The connection that owns the schema and runs migrations, for the migration step only (`npm run migrate`,
   * `npm start`'s own process): the API and the worker refuse to start with it. DATABASE_URL is then a runtime role
   * with only the privileges the service uses (store/runtimeRolePrivileges.ts). Empty: DATABASE_URL migrates too.
   */
  DATABASE_MIGRATION_URL: optionalText,
  /**
   * `id:base64(32 bytes),...`: AES-256-GCM keys of the secrets the registry stores (audit streams' signing secrets),
   * the first sealing. Required with DATABASE_URL; on the embedded defaults a development key is made in DATA_DIR.
   */
  REGISTRY_SECRET_KEYS: optionalText,
  DATA_DIR: z.string().default(resolve(projectRoot, '.data')),
  EMBEDDED_PG_PORT: integer(54329),
  DATABASE_POOL_MAX: integer(10),
  BODY_LIMIT_BYTES: integer(64 * 1024),
  SHUTDOWN_GRACE_MS: integer(10_000),
  /** Requests the API runs at once; later ones wait their turn, untouched (platform/requestAdmission.ts). 0: no limit. */
  HTTP_MAX_REQUESTS_IN_FLIGHT: z.coerce.number().int().min(0).default(16),
  /** A request holding one of those slots this long gives it back, so a slow request delays the others at most this. */
  HTTP_SLOT_RELEASE_MS: integer(100),
  /**
   * Requests that may wait for a slot; one more is answered 503 `unavailable` with Retry-After at once. Empty: 16 per
   * slot of HTTP_MAX_REQUESTS_IN_FLIGHT (api/requestAdmissionOf.ts); 0: none waits.
   */
  HTTP_MAX_QUEUED: optionalText.pipe(z.coerce.number<string | undefined>().int().min(0).optional()),
  API_KEY_LAST_USED_RESOLUTION_SECONDS: integer(60),
  /**
   * How long verify and claims may answer from the in-process cache. Changes made on this replica are seen at once
   * and other replicas' changes within milliseconds (PostgreSQL NOTIFY); this is the bound should a notification be
   * lost. 0 turns the cache off.
   */
  CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(30),
  /**
   * While PostgreSQL cannot be read, verify and claims answer from cache entries younger than this (docs/reliability.md:
   * on a replica cut off alone, a revocation made through another replica goes unseen for at most this long); 0: never.
   */
  CACHE_STALE_IF_ERROR_SECONDS: z.coerce.number().int().min(0).default(60),
  /** host:port of Temporal's frontend; empty: `npm start` runs a local development server. */
  TEMPORAL_ADDRESS: optionalText,
  /** TLS to Temporal (TEMPORAL_TLS, or implied by a CA or client certificate file): platform/temporal/temporalTls.ts. */
  TEMPORAL_TLS: z.enum(['true', 'false', '1', '0']).default('false').transform((v) => v === 'true' || v === '1'),
  TEMPORAL_TLS_CA_FILE: optionalText,
  TEMPORAL_TLS_CERT_FILE: optionalText,
  TEMPORAL_TLS_KEY_FILE: optionalText,
  TEMPORAL_TLS_SERVER_NAME: optionalText,
  /**
   * `id:base64(32 bytes),...`: AES-256-GCM keys of the Temporal payload codec, the first encrypting. Required with
   * TEMPORAL_ADDRESS; on the embedded defaults a development key is made in DATA_DIR.
   */
  TEMPORAL_PAYLOAD_KEYS: optionalText,
  /** Origins allowed to call the codec endpoint from a browser (the Temporal Web UI); default: the local Web UI. */
  CODEC_CORS_ORIGINS: optionalText.transform((v) => v?.split(',').map((o) => o.trim()).filter(Boolean)),
  /**
   * Serve the codec endpoint (/codec/decode, /codec/encode) with authentication off, to anyone who reaches the API
   * (it decrypts invite links); with AUTH_ENABLED it is always served, to registry:admin alone.
   */
  CODEC_ENDPOINT_ENABLED: z.enum(['true', 'false', '1', '0']).default('false').transform((v) => v === 'true' || v === '1'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('tenant-registry'),
  TEMPORAL_DEV_PORT: integer(7233),
  TEMPORAL_UI_PORT: integer(8233),
  /** How long POST /v1/tenants waits for the invite URL (reaching Temporal included) before answering 201 without it. */
  PROVISIONING_WAIT_MS: integer(10_000),
  /** Bound on reaching Temporal for one signal hand-off (claims pushes, operator commands, the outbox relay). */
  TEMPORAL_HANDOFF_TIMEOUT_MS: integer(3_000),
  /**
   * Tenant actors the worker keeps in memory between their tasks. An actor lives as long as its tenant and is idle
   * nearly always; one that was evicted is rebuilt from its (short) history when its next command comes. The SDK's
   * default scales with the heap limit (thousands on a large machine) and would let the cache own the process.
   */
  WORKER_MAX_CACHED_WORKFLOWS: integer(25),
  PROVISIONING_RETRY_INITIAL_MS: integer(1_000),
  PROVISIONING_RETRY_MAX_INTERVAL_MS: integer(30_000),
  PROVISIONING_RETRY_MAX_ATTEMPTS: integer(5),
  OUTBOX_RELAY_INTERVAL_MS: integer(5_000),
  /** Failed deliveries of one hand-off before it is dead-lettered (backoff doubling to 5 minutes: about an hour). */
  OUTBOX_MAX_ATTEMPTS: integer(20),
  /**
   * How long the worker's hourly retention sweep keeps each kind of row once nothing needs it (docs/operators.md,
   * "Retention"): days an admin-portal link is kept after it was opened or expired (never under 8 hours, its sessions'
   * lifetime), days a delivered hand-off of the outbox is kept, and hours the hash of a directory's replaced token is
   * kept after its grace ended.
   */
  PORTAL_LINK_RETENTION_DAYS: z.coerce.number().int().min(0).default(7),
  OUTBOX_DELIVERED_RETENTION_DAYS: z.coerce.number().int().min(0).default(7),
  DIRECTORY_TOKEN_RETENTION_HOURS: z.coerce.number().int().min(0).default(0),
  /** Days before trial_ends_at that the actor appends tenant.trial_ending. */
  TRIAL_REMINDER_DAYS: integer(3),
  /**
   * The only hosts audit streams may point at (comma-separated names or addresses), whatever they resolve to; empty:
   * any host whose addresses are public (no loopback, private, link-local, reserved or metadata address).
   */
  /** Hosts an SSO connection's issuer may be at, whatever they resolve to; empty: any host of public addresses only. */
  SSO_ISSUER_ALLOWED_HOSTS: optionalText.transform((v) => v?.split(',').map((h) => h.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')).filter(Boolean)),
  /** Bound on reading an SSO issuer's discovery document. */
  SSO_DISCOVERY_TIMEOUT_MS: integer(5_000),
  /** How often the tenant's actor reads a SAML connection's metadata URL again (a certificate rollover is taken in then). */
  SSO_METADATA_REFRESH_HOURS: integer(24),
  /** Bound on one reading of a SAML metadata URL, body included. */
  SSO_METADATA_TIMEOUT_MS: integer(5_000),
  /** The largest SAML metadata document read from a URL; a larger one is refused. */
  SSO_METADATA_MAX_BYTES: integer(1_048_576),
  /** SCIM requests a directory may make a second (a burst of twice that), its identity provider's own budget. */
  SCIM_RATE_LIMIT_PER_SECOND: integer(25),
  /** SCIM users a tenant's directories may hold together; past it a create is SCIM's 409 naming limit_reached. */
  SCIM_USERS_PER_TENANT_LIMIT: integer(100_000),
  /**
   * What one tenant may hold at most (SPEC-EXTENSIONS §13): directories, SSO connections, domains (any state),
   * pending invitations; past one, 409 `limit_reached` and nothing is made.
   */
  TENANT_DIRECTORIES_LIMIT: integer(5),
  TENANT_SSO_CONNECTIONS_LIMIT: integer(5),
  TENANT_DOMAINS_LIMIT: integer(50),
  TENANT_PENDING_INVITATIONS_LIMIT: integer(1_000),
  /** Invitation sends one tenant may make in an hour: creations and resends, with or without the e-mail. */
  TENANT_INVITATIONS_SENT_PER_HOUR_LIMIT: integer(100),
  /** Where domains' TXT records are looked up (`host:port`, comma-separated); empty: the system's resolvers. */
  DNS_SERVERS: optionalText.transform((v) => v?.split(',').map((s) => s.trim()).filter(Boolean) ?? []),
  /** Bound on one DNS try (two tries a server). */
  DNS_TIMEOUT_MS: integer(2_000),
  /** How long a pending domain is looked for before it fails. */
  DOMAIN_VERIFICATION_WINDOW_HOURS: integer(72),
  /** How often a verified domain's record is looked up again. */
  DOMAIN_RECHECK_HOURS: integer(24),
  AUDIT_STREAM_ALLOWED_HOSTS: optionalText.transform((v) => v?.split(',').map((h) => h.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')).filter(Boolean)),
  /** Bound on one delivery POST of an audit stream. */
  AUDIT_STREAM_TIMEOUT_MS: integer(5_000),
  /** How often the API makes sure every live audit stream has its delivery workflow. */
  AUDIT_STREAM_RECONCILE_INTERVAL_MS: integer(30_000),
  /**
   * Per-client rate limits (token buckets keyed by the token's client, or by the address with authentication off):
   * requests per second and burst for verify, for claims, and for every other route; a rate of 0 is no limit, a
   * burst of 0 is two seconds' worth. Past the budget: 429 rate_limited with Retry-After.
   */
  RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).default(0),
  RATE_LIMIT_BURST: z.coerce.number().int().min(0).default(0),
  RATE_LIMIT_VERIFY_PER_SECOND: z.coerce.number().min(0).default(0),
  RATE_LIMIT_VERIFY_BURST: z.coerce.number().int().min(0).default(0),
  RATE_LIMIT_CLAIMS_PER_SECOND: z.coerce.number().min(0).default(0),
  RATE_LIMIT_CLAIMS_BURST: z.coerce.number().int().min(0).default(0),
  /**
   * With authentication on and a limit configured, each client address may spend this many clients' budgets of a
   * class before its token is verified (keyed by address: a token's claims are unverified then, and could name
   * someone else's client). A flood of tokens is refused with 429 without costing a verification.
   */
  RATE_LIMIT_ADDRESS_CLIENTS: z.coerce.number().int().min(1).default(10),
  /**
   * Prometheus `/metrics` of the API and of the worker, each on a listener of its own on HOST; 0 turns one off (no
   * metric is then recorded at all).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9465),
  /** OTLP/HTTP collector base URL (e.g. http://127.0.0.1:4318): the API and the worker export traces there; empty: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalText,
  OTEL_SERVICE_NAME: z.string().default('tenant-registry'),
  /** How long one run of the readiness checks answers every /readyz call (0: each call runs them). */
  READINESS_CACHE_MS: z.coerce.number().int().min(0).default(2_000),
  /** Audit appends waiting for the database before POST /v1/audit answers 503 (a bound on memory when it is slow). */
  AUDIT_APPEND_MAX_QUEUED: integer(2_000),
  /**
   * How long a sign-in's audit event (sign_in.refused, member.break_glass_used) waits in memory for others to be
   * written with it; a clean stop writes what waits. The claims call that caused it never waits on it.
   */
  SIGN_IN_AUDIT_FLUSH_MS: integer(200),
  /**
   * Audit exports and integrity checks one API process runs at once (together); one more is answered 429 with
   * Retry-After instead of waiting. Each walks up to the whole log.
   */
  AUDIT_EXPORTS_IN_FLIGHT: integer(2),
  /** Time limit of each statement of an audit export or integrity check; past it the request answers 503 `unavailable`. */
  AUDIT_STATEMENT_TIMEOUT_MS: integer(60_000),
  /**
   * Where callers reach the service (`https://registry.example.com`): every URL it hands out is built on it, the admin
   * portal's links, the directories' SCIM base URLs, the simulated provider's invite links. Required with
   * AUTH_ENABLED; empty otherwise: http://127.0.0.1:PORT.
   */
  PUBLIC_BASE_URL: optionalText.refine((v) => v === undefined || isBaseUrl(v), 'must be an absolute http(s) URL without query or fragment')
    .transform((v) => v?.replace(/\/+$/, '')),
});
export type Settings = z.infer<typeof Settings>;
/** Every setting's name: the Helm chart gives each one it needs in production a value (test/deploy/helmChart.test.ts). */
export const SETTING_NAMES = Object.keys(Settings.shape) as (keyof Settings)[];

/**
 * The settings that hold a secret (IDP_ADMIN_CLIENT_SECRET is read by identityProvider/keycloakSettings.ts from the
 * same environment), and the placeholders .env.example ships for them: a deployment that copied the example without
 * replacing a value would run on a secret everyone knows.
 */
const SECRET_SETTINGS = ['DATABASE_URL', 'DATABASE_MIGRATION_URL', 'TEMPORAL_PAYLOAD_KEYS', 'REGISTRY_SECRET_KEYS', 'IDP_ADMIN_CLIENT_SECRET'] as const;

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = Settings.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  // A service others call hands them links: left to its own loopback address, they would lead nowhere.
  if (AUTH_ON.has(env.AUTH_ENABLED?.trim().toLowerCase() ?? '') && parsed.data.PUBLIC_BASE_URL === undefined) {
    throw new Error(
      'invalid configuration: PUBLIC_BASE_URL is required with AUTH_ENABLED=true: set it to the URL callers reach the service at (every admin portal link, SCIM base URL and invite link is built on it)',
    );
  }
  // Named, never shown: the message must not carry the value, which may be a real secret around the placeholder.
  const placeholders = settingsHoldingPlaceholders(env, SECRET_SETTINGS);
  if (placeholders.length > 0) {
    throw new Error(`invalid configuration: ${placeholders.join(', ')} still hold a placeholder (change-me…, REPLACE-WITH…): set each to a secret of your own`);
  }
  return parsed.data;
}
