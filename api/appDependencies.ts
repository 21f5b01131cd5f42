import type { DeepAuditPages } from '../domain/audit/deepAuditPages.ts';
import type { TokenBuckets } from '../domain/rateLimits/tokenBuckets.ts';
import type { Orm } from '../store/orm.ts';
import type { Settings } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { CheckResult } from './readinessChecks.ts';
import type { TenantActorClient } from './temporalClients/tenantActorClient.ts';
import type { IdentityProvider } from '../identityProvider/identityProvider.ts';
import type { SsoServiceProviderOf } from '../domain/sso/ssoServiceProvider.ts';
import type { AuthConfig } from './auth/authConfig.ts';
import type { RegistryCache } from '../domain/reads/registryCache.ts';
import type { LastUsedMarks } from '../domain/apiKeys/lastUsedMarks.ts';
import type { AuditAppendBatcher } from '../domain/audit/auditAppendBatcher.ts';
import type { SignInAuditLog } from '../domain/audit/signInAuditLog.ts';
import type { AuditReadLimits } from '../domain/audit/auditReadLimits.ts';
import type { VerifyDependencies } from '../domain/apiKeys/verifyApiKey.ts';
import type { RegistryStores } from '../domain/registryStores.ts';
import type { AuditStreamClient } from './temporalClients/auditStreamClient.ts';
import type { WebhookDeliveryClient } from './temporalClients/webhookDeliveryClient.ts';
import type { RegistryContext } from '../domain/registryContext.ts';
import type { ChangeEffectDispatcher } from './changeEffects/changeEffectDispatcher.ts';
import type { PayloadCodec } from '@temporalio/common';
import type { Tracer } from '@opentelemetry/api';
import type { ApiMetrics } from './apiMetrics.ts';
import type { SecretBox } from '../platform/secretBox.ts';
import type { ResolveHost, StreamTargets } from '../domain/auditStreams/streamTargets.ts';

/** What the HTTP layer is built from; tests and the entry point assemble it the same way. */
export interface AppDependencies {
  settings: Settings;
  /** Inbound authentication (AUTH_ENABLED); loaded before anything starts so incomplete settings fail closed. */
  authConfig: AuthConfig;
  orm: Orm;
  log: Logger;
  /** Runs the readiness checks; `store` decides the status code, the others are reported. */
  readiness: () => Promise<Record<string, CheckResult>>;
  /** Temporal side of provisioning and claim pushes; absent, hand-offs stay in the outbox for a relay elsewhere. */
  tenantActors?: TenantActorClient;
  /** Read-only uses of the provider in the API (memberships). */
  identityProvider?: IdentityProvider;
  /** Starts and stops streams' delivery workflows; absent, the reconciler of another replica starts them. */
  auditStreams?: AuditStreamClient;
  /** Starts and wakes webhook endpoints' delivery workflows; absent, the reconciler of another replica starts them. */
  webhookDeliveries?: WebhookDeliveryClient;
  /**
   * API keys and tenants for verify and claims; createApp makes one (CACHE_TTL_SECONDS) when none is given.
   * startApi also connects it to the tables' change notifications (store/changeListener.ts).
   */
  cache?: RegistryCache;
  /** OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT); absent, no span is made. */
  tracer?: Tracer;
  /** Prometheus metrics (METRICS_PORT); absent, nothing is recorded. */
  metrics?: ApiMetrics;
  /** The Temporal payload codec, served to the Web UI at /codec (absent: those routes answer 404). */
  payloadCodec?: PayloadCodec;
  /** The aggregates' stores; createApp makes the PostgreSQL ones when none are given. */
  stores?: RegistryStores;
  /** Seals the secrets the stores keep (REGISTRY_SECRET_KEYS), for the PostgreSQL stores createApp makes. */
  secretBox: SecretBox;
  /** How an audit stream's host is resolved when it is created; default: the system resolver. */
  resolveHost?: ResolveHost;
}

/**
 * Everything a route handler reads, complete: made by createApp from AppDependencies, which it leaves as they are.
 * It is the domain services' RegistryContext: handlers pass it to them whole.
 */
export interface AppContext extends AppDependencies, RegistryContext {
  stores: RegistryStores;
  /** Carries out what follows each committed change (api/changeEffects/changeEffectDispatcher.ts). */
  effects: ChangeEffectDispatcher;
  cache: RegistryCache;
  /** Writes POST /v1/audit appends, several to a statement under load. */
  auditAppends: AuditAppendBatcher;
  /** Appends the claims path's sign-in events in the background, a batch at a time; closed (written out) at stop. */
  signInAudit: SignInAuditLog;
  /** The slots and statement timeout of the audit exports and integrity checks of this process. */
  auditReads: AuditReadLimits;
  /** Which audit pages below the head are final, and their ETags. */
  deepAuditPages: DeepAuditPages;
  /** Writes last_used_at of verified keys in batches. */
  lastUsedMarks: LastUsedMarks;
  /** What verify runs on (repository, cache, last_used_at marks). */
  keyVerification: VerifyDependencies;
  /** Each directory's SCIM budget (SCIM_RATE_LIMIT_PER_SECOND), in this process. */
  scimLimits: TokenBuckets;
  /** Where audit streams may point (AUDIT_STREAM_ALLOWED_HOSTS and the resolver). */
  streamTargets: StreamTargets;
  /** The service provider values each connection answers as `sp`. */
  ssoServiceProvider: SsoServiceProviderOf;
}
