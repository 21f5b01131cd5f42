import KeycloakAdminClient from '@keycloak/keycloak-admin-client';
import { keycloakContext } from './keycloakContext.ts';

/**
 * The tests' own administrator access to the run's Keycloak (the master realm's bootstrap admin), set to the tenant
 * realm: to seed conflicts and to check what the service did, independently of the admin client under test.
 * Authenticates on every call: master's admin-cli tokens live one minute, shorter than a test file.
 */
export async function keycloakAdmin(): Promise<KeycloakAdminClient> {
  const keycloak = keycloakContext();
  const client = new KeycloakAdminClient({ baseUrl: keycloak.url, realmName: 'master' });
  await client.auth({
    grantType: 'password',
    clientId: 'admin-cli',
    username: keycloak.bootstrapAdmin.username,
    password: keycloak.bootstrapAdmin.password,
  });
  client.setConfig({ realmName: keycloak.realm });
  return client;
}
