/**
 * The service provider's side of a connection, as the identity provider's broker of alias `sso-<id>` has it: what the
 * customer enters at its own identity provider (SPEC-EXTENSIONS §14). Keycloak's are its broker endpoints
 * (`{base}/realms/{realm}/broker/{alias}/endpoint`, its SAML descriptor under it); the simulated provider's are its own.
 */
export interface SsoServiceProvider {
  /** The SAML entity id the IdP's responses must name as their Audience: the metadata URL, where it resolves. */
  entityId: string;
  /** The SAML AssertionConsumerService (HTTP-POST), and OIDC's redirect URI: the broker's endpoint. */
  acsUrl: string;
  /** Answers the SP's SAML metadata, naming entityId and acsUrl. */
  metadataUrl: string;
  redirectUri: string;
}

/** The service provider of an identity provider alias (the IdentityProvider port's ssoServiceProvider). */
export type SsoServiceProviderOf = (alias: string) => SsoServiceProvider;

/** A broker's service provider values under its base URL (`…/broker/{alias}`), as Keycloak lays them out. */
export function brokerServiceProvider(brokerBase: string): SsoServiceProvider {
  const endpoint = `${brokerBase}/endpoint`;
  const descriptor = `${endpoint}/descriptor`;
  return { entityId: descriptor, acsUrl: endpoint, metadataUrl: descriptor, redirectUri: endpoint };
}
