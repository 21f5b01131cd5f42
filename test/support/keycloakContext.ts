import { inject } from 'vitest';
import type { KeycloakSettings } from '../../identityProvider/keycloakSettings.ts';
import { RedactedSecret } from '../../identityProvider/redactedSecret.ts';
import { ADMIN_CLIENT_ID, type RealmClientSecrets } from '../../platform/keycloakServer.ts';

/** What test/support/keycloakGlobalSetup.ts hands the Keycloak test files: where the server is and how to reach it. */
export type KeycloakTestContext = {
  url: string;
  realm: string;
  realmUrl: string;
  secrets: RealmClientSecrets;
  bootstrapAdmin: { username: string; password: string };
  /** The SMTP catcher's folder: one .eml file per e-mail Keycloak sent. */
  mailDir: string;
};

declare module 'vitest' {
  export interface ProvidedContext {
    keycloak: KeycloakTestContext;
  }
}

export const keycloakContext = (): KeycloakTestContext => inject('keycloak');

/** The adapter's settings for the run's Keycloak, as IDP_* would give them; `overrides` bend one for a failure. */
export function keycloakSettings(overrides: Partial<KeycloakSettings> = {}): KeycloakSettings {
  const keycloak = keycloakContext();
  return {
    url: keycloak.url,
    realm: keycloak.realm,
    clientId: ADMIN_CLIENT_ID,
    clientSecret: new RedactedSecret(keycloak.secrets.admin),
    inviteLifespanSeconds: 3600,
    // Above the service's 5 s default: on two cores shared with the whole suite, Keycloak's first e-mail (template
    // and mail session set-up) can take longer, and a timed-out invite is retried, which mails a second link.
    httpTimeoutMs: 15_000,
    ...overrides,
  };
}
