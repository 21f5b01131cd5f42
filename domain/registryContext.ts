import type { ChangeEffects } from './changeEffects/changeEffects.ts';
import type { RegistryStores } from './registryStores.ts';
import type { TenantActorSignals } from './tenantActor/tenantActorSignals.ts';
import type { UserDirectory } from './members/userDirectory.ts';
import type { DomainChecks } from './domains/domainChecks.ts';
import type { IssuerDiscovery } from './sso/issuerDiscovery.ts';
import type { SamlMetadataSource } from './sso/samlMetadataSource.ts';
import type { SsoServiceProviderOf } from './sso/ssoServiceProvider.ts';
import type { RegistryCache } from './reads/registryCache.ts';
import type { TenantLimits } from './tenants/tenantLimits.ts';

/**
 * What a domain service that changes the registry runs on: the aggregates' stores, and the port that carries out
 * what follows a committed change. The API's context is one; a test's fakes are another.
 */
export interface RegistryContext {
  stores: RegistryStores;
  effects: ChangeEffects;
  /** What one tenant may hold at most (the TENANT_*_LIMIT settings). */
  tenantLimits: TenantLimits;
  /** The tenant actors' operator commands; absent where no workflow service is configured. */
  tenantActorSignals?: TenantActorSignals;
  /** The identity provider's users (a new member is made of one); absent where no provider is configured. */
  users?: UserDirectory;
  /** Domains' TXT look-ups (DNS_SERVERS) and their times; absent where none is configured. */
  domainChecks?: DomainChecks;
  /** Reads an SSO connection's issuer's discovery document (SSO_ISSUER_ALLOWED_HOSTS); absent where none is configured. */
  issuerDiscovery?: IssuerDiscovery;
  /** Reads a SAML connection's metadata URL (SSO_ISSUER_ALLOWED_HOSTS, SSO_METADATA_*); absent where none is configured. */
  samlMetadata?: SamlMetadataSource;
  /** The service provider values of an identity provider alias (the connection's `sp`). */
  ssoServiceProvider?: SsoServiceProviderOf;
  /** Whether a user signed in through an SSO connection's identity provider; absent where no provider is configured. */
  ssoLinks?: { signedInThrough(userId: string, alias: string): Promise<boolean> };
  /** SCIM users a tenant's directories may hold together (SCIM_USERS_PER_TENANT_LIMIT); absent, 100,000. */
  scimUsersPerTenantLimit?: number;
  /** The replica's cache of hot reads; absent, every read goes to the store. */
  cache?: RegistryCache;
}
