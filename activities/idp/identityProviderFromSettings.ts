import type { Orm } from '../../store/orm.ts';
import type { IdentityProvider } from './identityProvider.ts';
import { KeycloakIdentityProvider } from './keycloakIdentityProvider.ts';
import { loadKeycloakSettings } from './keycloakSettings.ts';
import { SimulatedIdentityProvider } from './simulatedIdentityProvider.ts';

/** Keycloak when IDP_ADMIN_URL is set (incomplete settings refuse to start); otherwise the simulated provider. */
export function identityProviderFromSettings(env: NodeJS.ProcessEnv, orm: Orm, publicBaseUrl: string): { idp: IdentityProvider; kind: 'keycloak' | 'simulated' } {
  const keycloak = loadKeycloakSettings(env);
  if (keycloak) return { idp: new KeycloakIdentityProvider(keycloak), kind: 'keycloak' };
  return { idp: new SimulatedIdentityProvider(orm, publicBaseUrl), kind: 'simulated' };
}
