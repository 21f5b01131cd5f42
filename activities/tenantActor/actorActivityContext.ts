import type { DomainChecks } from '../../domain/domains/domainChecks.ts';
import type { RegistryStores } from '../../domain/registryStores.ts';
import type { SamlMetadataSource } from '../../domain/sso/samlMetadataSource.ts';
import type { IdentityProvider } from '../../identityProvider/identityProvider.ts';
import type { WorkerMetrics } from '../../platform/metrics/workerMetrics.ts';
import { providerStepOf, type ProviderStep } from './providerStep.ts';

/** What the worker gives the tenant actor's activities (createTenantActorActivities). */
export interface TenantActorActivityDeps {
  stores: Pick<RegistryStores, 'tenants' | 'audit' | 'members'> &
    Partial<Pick<RegistryStores, 'invites' | 'invitations' | 'outbox' | 'domains' | 'ssoConnections' | 'directories' | 'directoryUsers' | 'directoryGroups' | 'catalog'>>;
  /** Domains' TXT look-ups and their times; absent, the actor checks no domain. */
  domainChecks?: DomainChecks;
  idp: IdentityProvider;
  trialReminderDays?: number;
  metrics?: WorkerMetrics;
  /** How long the invite step waits for the invite ledger's database before giving up on it (see sendInvite). */
  inviteLedgerPatienceMs?: number;
  /** Reads SAML metadata URLs (SSO_ISSUER_ALLOWED_HOSTS, SSO_METADATA_*); absent, the actor reads none again. */
  samlMetadata?: SamlMetadataSource;
  /** SSO_METADATA_REFRESH_HOURS; default 24. */
  metadataRefreshHours?: number;
}

/** What every family of the actor's activities works with: the deps, their defaults filled in, and the provider step. */
export interface ActorActivityContext {
  stores: TenantActorActivityDeps['stores'];
  idp: IdentityProvider;
  domainChecks?: DomainChecks;
  metrics?: WorkerMetrics;
  /** Days before a trial's end its reminder is due (TRIAL_REMINDER_DAYS). */
  reminderDays: number;
  ledgerPatienceMs: number;
  samlMetadata?: SamlMetadataSource;
  metadataRefreshHours: number;
  step: ProviderStep;
}

export function actorActivityContext(deps: TenantActorActivityDeps): ActorActivityContext {
  return {
    stores: deps.stores,
    idp: deps.idp,
    domainChecks: deps.domainChecks,
    metrics: deps.metrics,
    reminderDays: deps.trialReminderDays ?? 3,
    ledgerPatienceMs: deps.inviteLedgerPatienceMs ?? 20_000,
    samlMetadata: deps.samlMetadata,
    metadataRefreshHours: deps.metadataRefreshHours ?? 24,
    step: providerStepOf(deps.metrics),
  };
}
