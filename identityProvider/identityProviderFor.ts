import type { Orm } from '../store/orm.ts';
import type { IdentityProvider } from './identityProvider.ts';
import type { KeycloakSettings } from './keycloakSettings.ts';
import { SimulatedIdentityProvider } from './simulatedIdentityProvider.ts';

/**
 * Keycloak when IDP_ADMIN_URL is set, otherwise the simulated provider. The settings are loaded (and validated,
 * failing closed) by the entry point before anything starts. The Keycloak adapter and its admin client are imported
 * only when chosen: their modules stay in a process's memory, which a process on the simulated provider never uses.
 */
export async function identityProviderFor(
  keycloak: KeycloakSettings | undefined,
  orm: Orm,
  publicBaseUrl: string,
): Promise<{ idp: IdentityProvider; kind: 'keycloak' | 'simulated' }> {
  if (keycloak) {
    const { KeycloakIdentityProvider } = await import('./keycloakIdentityProvider.ts');
    return { idp: new KeycloakIdentityProvider(keycloak), kind: 'keycloak' };
  }
  return { idp: new SimulatedIdentityProvider(orm, publicBaseUrl), kind: 'simulated' };
}
