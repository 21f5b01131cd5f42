import type { Orm } from '../store/orm.ts';
import type { Settings } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { CheckResult } from './readinessChecks.ts';
import type { TenantActorDispatcher } from './tenantActors/tenantActorDispatcher.ts';
import type { IdentityProvider } from '../activities/idp/identityProvider.ts';
import type { AuthConfig } from './auth/authConfig.ts';
import type { RegistryCache } from '../domain/registryCache.ts';
import type { LastUsedMarks } from '../domain/apiKeys/lastUsedMarks.ts';
import type { AuditAppendBatcher } from '../domain/audit/auditAppendBatcher.ts';
import type { ApiKeyRepository } from '../domain/apiKeys/apiKeyRepository.ts';
import type { AuditRepository } from '../domain/audit/auditRepository.ts';
import type { AuditStreamRepository } from '../domain/auditStreams/auditStreamRepository.ts';
import type { AuditStreamStarter } from './auditStreams/auditStreamStarter.ts';
import type { VerifyDependencies } from '../domain/apiKeys/verifyApiKey.ts';

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
  tenantActors?: TenantActorDispatcher;
  /** Read-only uses of the provider in the API (memberships). */
  identityProvider?: IdentityProvider;
  /**
   * API keys and tenants for verify and claims; createApp makes one (CACHE_TTL_SECONDS) when none is given.
   * startApi also connects it to the tables' change notifications (store/changeListener.ts).
   */
  cache?: RegistryCache;
  /** Writes POST /v1/audit appends, several to a statement under load; createApp makes one when none is given. */
  auditAppends?: AuditAppendBatcher;
  /** Writes last_used_at of verified keys in batches; createApp makes one when none is given. */
  lastUsedMarks?: LastUsedMarks;
  /** The audit log's store; createApp makes the PostgreSQL one when none is given. */
  audit?: AuditRepository;
  /** The audit streams' store; createApp makes the PostgreSQL one when none is given. */
  auditStreams?: AuditStreamRepository;
  /** Starts and stops streams' delivery workflows; absent, the reconciler of another replica starts them. */
  auditStreamStarter?: AuditStreamStarter;
  /** The API keys aggregate's store; createApp makes the PostgreSQL one when none is given. */
  apiKeys?: ApiKeyRepository;
  /** What verify runs on (repository, cache, last_used_at marks), assembled once by createApp. */
  keyVerification?: VerifyDependencies;
}
