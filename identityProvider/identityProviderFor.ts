import type { Orm } from '../store/orm.ts';
import type { IdentityProvider } from './identityProvider.ts';
import { KeycloakIdentityProvider } from './keycloakIdentityProvider.ts';
import type { KeycloakSettings } from './keycloakSettings.ts';
import { SimulatedIdentityProvider } from './simulatedIdentityProvider.ts';

/**
 * Keycloak when IDP_ADMIN_URL is set, otherwise the simulated provider. The settings are loaded (and validated,
 * failing closed) by the entry point before anything starts.
 */
export function identityProviderFor(
  keycloak: KeycloakSettings | undefined,
  orm: Orm,
  publicBaseUrl: string,
): { idp: IdentityProvider; kind: 'keycloak' | 'simulated' } {
  if (keycloak) return { idp: new KeycloakIdentityProvider(keycloak), kind: 'keycloak' };
  return { idp: new SimulatedIdentityProvider(orm, publicBaseUrl), kind: 'simulated' };
}
