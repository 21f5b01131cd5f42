import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RegistryCache } from '../domain/reads/registryCache.ts';
import type { ActorOutbox } from '../domain/tenantActor/actorOutboxRepository.ts';
import { VERIFY_CODES } from '../domain/apiKeys/keyVerdict.ts';
import type { RequestAdmission } from '../platform/requestAdmission.ts';
import type { CheckResult } from './readinessChecks.ts';
import type { AuditStreamLag } from '../domain/auditStreams/auditStreamLag.ts';
import type { CertificateExpiry } from '../platform/temporal/temporalCertificateExpiries.ts';
import { registerCertificateExpiry } from '../platform/metrics/certificateExpiryGauge.ts';

type VerifyCode = (typeof VERIFY_CODES)[number];

/**
 * The API process's Prometheus metrics (SPEC-EXTENSIONS §6), in a registry of its own served on METRICS_PORT. Labels
 * are bounded: route templates (never raw paths or ids), methods, statuses, verdict codes, outcomes.
 */
export interface ApiMetrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  verifications: Counter<'code'>;
  /** The verifications counter's series, one per verdict code, made once (verify is the hottest path). */
  verificationsByCode: Record<VerifyCode, Counter.Internal>;
  claimsResolutions: Counter<'outcome'>;
  /** The claims calls' sign-in decisions (SPEC-EXTENSIONS §15): `allow`, or `deny` with its reason. */
  signInDecisions: Counter<'decision' | 'reason'>;
}

export interface ApiMetricSources {
  cache: RegistryCache;
  outbox: ActorOutbox;
  requests: RequestAdmission;
  /** The checks /readyz answers with (cached by READINESS_CACHE_MS, so a scrape costs no extra ping). */
  readiness: () => Promise<Record<string, CheckResult>>;
  auditStreamLag: () => Promise<AuditStreamLag[]>;
  certificates: readonly CertificateExpiry[];
}

export function createApiMetrics(sources: ApiMetricSources): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { cache, outbox, requests } = sources;
  new Gauge({
    name: 'tenant_registry_readiness_check_up',
    help: "The readiness checks of /readyz by check (store, temporal, identity_provider, outbox): 1 up or disabled, 0 down; the store's decides /readyz",
    labelNames: ['check'] as const,
    registers: [registry],
    async collect() {
      for (const [check, { status }] of Object.entries(await sources.readiness())) this.set({ check }, status === 'down' ? 0 : 1);
    },
  });
  const streams = new Gauge({ name: 'tenant_registry_audit_streams', help: 'Live audit streams', registers: [] });
  new Gauge({
    name: 'tenant_registry_audit_stream_lag_seconds',
    help: 'Age of the oldest audit event a live stream should carry and has not delivered yet, the most of any stream (0: every stream caught up)',
    registers: [registry],
    async collect() {
      // One series, not one a stream: a stream's id is no label (ids never are); the alert needs the worst.
      const lags = await sources.auditStreamLag();
      this.set(Math.max(0, ...lags.map((lag) => lag.oldestUndeliveredSeconds)));
      streams.set(lags.length);
    },
  });
  registry.registerMetric(streams);
  registerCertificateExpiry(registry, sources.certificates);
  new Gauge({
    name: 'tenant_registry_http_requests_running',
    help: 'Requests the API is running now (at most HTTP_MAX_REQUESTS_IN_FLIGHT, but for those past HTTP_SLOT_RELEASE_MS)',
    registers: [registry],
    collect() {
      this.set(requests.running);
    },
  });
  new Gauge({
    name: 'tenant_registry_http_requests_waiting',
    help: 'Requests received and waiting for one of HTTP_MAX_REQUESTS_IN_FLIGHT slots',
    registers: [registry],
    collect() {
      this.set(requests.waiting);
    },
  });
  new Counter({
    name: 'tenant_registry_cache_lookups_total',
    help: 'Registry cache lookups by verify, claims and the listings, by cache and result (hit: answered from memory)',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ cache: 'api_key', result: 'hit' }, cache.apiKeys.stats.hits);
      this.inc({ cache: 'api_key', result: 'miss' }, cache.apiKeys.stats.misses);
      this.inc({ cache: 'tenant', result: 'hit' }, cache.tenants.stats.hits);
      this.inc({ cache: 'tenant', result: 'miss' }, cache.tenants.stats.misses);
      this.inc({ cache: 'member', result: 'hit' }, cache.grants.stats.hits);
      this.inc({ cache: 'member', result: 'miss' }, cache.grants.stats.misses);
      this.inc({ cache: 'member_list', result: 'hit' }, cache.memberLists.stats.hits);
      this.inc({ cache: 'member_list', result: 'miss' }, cache.memberLists.stats.misses);
      this.inc({ cache: 'listing', result: 'hit' }, cache.listings.stats.hits);
      this.inc({ cache: 'listing', result: 'miss' }, cache.listings.stats.misses);
    },
  });
  new Gauge({
    name: 'tenant_registry_cache_entries',
    help: 'Entries the registry cache holds, by part (expired ones go within seconds once stale-if-error cannot use them)',
    labelNames: ['cache'] as const,
    registers: [registry],
    collect() {
      for (const [part, entries] of Object.entries(cache.held())) this.set({ cache: part }, entries);
    },
  });
  const deadLetters = new Gauge({
    name: 'tenant_registry_outbox_dead_letters',
    help: 'Hand-offs the outbox relay gave up on (OUTBOX_MAX_ATTEMPTS): each needs an operator',
    registers: [],
  });
  const backlogAge = new Gauge({
    name: 'tenant_registry_outbox_oldest_seconds',
    help: 'Age of the oldest hand-off to a tenant actor not delivered yet (0: none)',
    registers: [],
  });
  new Gauge({
    name: 'tenant_registry_outbox_backlog',
    help: 'Hand-offs to tenant actors (provisioning, claims pushes) not delivered to Temporal yet',
    registers: [registry],
    async collect() {
      const { pending, oldestSeconds, deadLettered } = await outbox.backlog();
      this.set(pending);
      backlogAge.set(oldestSeconds);
      deadLetters.set(deadLettered);
    },
  });
  // After the backlog gauge, whose one query sets them, so a scrape reads them fresh.
  registry.registerMetric(backlogAge);
  registry.registerMetric(deadLetters);
  const verifications = new Counter({
    name: 'tenant_registry_api_key_verifications_total',
    help: 'API key verifications by verdict code (VALID, NOT_FOUND, REVOKED, ...)',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  return {
    registry,
    verifications,
    verificationsByCode: Object.fromEntries(VERIFY_CODES.map((code) => [code, verifications.labels({ code })])) as ApiMetrics['verificationsByCode'],
    requestDuration: new Histogram({
      name: 'tenant_registry_http_request_duration_seconds',
      help: 'HTTP requests by route template, method and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    ...claimsCounters(registry),
  };
}

/** The claims path's counters: its outcomes, and the sign-in decisions of the calls that named a client. */
function claimsCounters(registry: Registry): Pick<ApiMetrics, 'claimsResolutions' | 'signInDecisions'> {
  return {
    claimsResolutions: new Counter({
      name: 'tenant_registry_claims_resolutions_total',
      help: 'Claims resolutions for the identity provider by outcome (resolved, or the error code)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    signInDecisions: new Counter({
      name: 'tenant_registry_sign_in_decisions_total',
      help: 'Sign-in decisions of the claims calls that named a client: allow, or deny with its reason',
      labelNames: ['decision', 'reason'] as const,
      registers: [registry],
    }),
  };
}
