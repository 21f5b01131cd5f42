/**
 * A tenant's SAML connection as a Keycloak identity provider, secure by default (SPEC-EXTENSIONS §14): the settings
 * the registry writes, and which of them count as drift when Keycloak holds them otherwise.
 */
import type { SamlSsoProvider, TenantRef } from './identityProvider.ts';

/**
 * The extension's SAML broker (keycloak/extension: TenantRegistrySamlIdentityProviderFactory): Keycloak's own, with
 * the checks Keycloak's leaves out done before it reads a response (docs/security.md, "SAML responses").
 */
export const SAML_PROVIDER_ID = 'tenant-registry-saml';

/** Seconds either side of an assertion's validity window that a clock apart from ours is allowed. */
export const SAML_ALLOWED_CLOCK_SKEW_SECONDS = 30;

const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/**
 * The settings no connection changes: signed assertions, signatures checked against the metadata's certificates,
 * SHA-256 requests, responses by POST, the e-mail from the assertion's NameID, the clock skew. A value Keycloak holds
 * otherwise was changed behind the registry's back.
 */
export const SAML_POLICY: Readonly<Record<string, string>> = {
  validateSignature: 'true',
  wantAssertionsSigned: 'true',
  wantAssertionsEncrypted: 'false',
  wantAuthnRequestsSigned: 'true',
  signatureAlgorithm: 'RSA_SHA256',
  xmlSigKeyInfoKeyNameTransformer: 'KEY_ID',
  postBindingResponse: 'true',
  postBindingLogout: 'true',
  artifactBindingResponse: 'false',
  backchannelSupported: 'false',
  principalType: 'SUBJECT',
  nameIDPolicyFormat: EMAIL_NAME_ID_FORMAT,
  allowCreate: 'true',
  allowedClockSkew: String(SAML_ALLOWED_CLOCK_SKEW_SECONDS),
  forceAuthn: 'false',
  syncMode: 'IMPORT',
  loginHint: 'true',
};

/** Keycloak keeps a certificate as the base64 of its DER, several joined by commas. */
const certificateBodyOf = (pem: string): string => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

export type KeycloakSamlRepresentation = {
  alias: string;
  displayName: string;
  providerId: string;
  enabled: boolean;
  hideOnLogin: boolean;
  trustEmail: boolean;
  storeToken: boolean;
  linkOnly: boolean;
  firstBrokerLoginFlowAlias: string;
  postBrokerLoginFlowAlias: string;
  config: Record<string, string>;
};

/**
 * The identity provider of a SAML connection: the IdP's entity id, SSO URL and signing certificates from its
 * metadata, the SP entity id the customer entered at its IdP, the policy above, and the organization's domain
 * redirect as for OIDC (Keycloak 26 binds an organization's identity provider to one domain).
 */
export function keycloakSamlRepresentation(
  tenant: TenantRef,
  provider: SamlSsoProvider,
  flows: { firstBrokerLogin: string; postBrokerLogin: string },
): KeycloakSamlRepresentation {
  return {
    alias: provider.alias,
    displayName: `${tenant.name} SSO`,
    providerId: SAML_PROVIDER_ID,
    enabled: provider.enabled,
    hideOnLogin: true,
    // The holder proves the address (SPEC-EXTENSIONS §13: no tenant marks an e-mail verified).
    trustEmail: false,
    storeToken: false,
    linkOnly: false,
    firstBrokerLoginFlowAlias: flows.firstBrokerLogin,
    postBrokerLoginFlowAlias: flows.postBrokerLogin,
    config: {
      ...SAML_POLICY,
      entityId: provider.serviceProvider.entityId,
      idpEntityId: provider.idpEntityId,
      singleSignOnServiceUrl: provider.ssoUrl,
      postBindingAuthnRequest: String(provider.ssoBinding === 'post'),
      signingCertificate: provider.certificates.map((certificate) => certificateBodyOf(certificate.pem)).join(','),
      ...(provider.domains[0] ? { 'kc.org.domain': provider.domains[0], 'kc.org.broker.redirect.mode.email-matches': 'true' } : {}),
    },
  };
}

type StoredProvider = { providerId?: string; trustEmail?: boolean; firstBrokerLoginFlowAlias?: string; postBrokerLoginFlowAlias?: string; config?: Record<string, unknown> };

/**
 * The settings of `stored` that differ from the policy `wanted` carries (what nobody but the registry may change), by
 * name: the provider type, the trusted e-mail, the broker flows and every SAML_POLICY key.
 */
export function driftedPolicy(stored: StoredProvider, wanted: KeycloakSamlRepresentation): string[] {
  const drifted: string[] = [];
  if (stored.providerId !== wanted.providerId) drifted.push('providerId');
  if (stored.trustEmail !== wanted.trustEmail) drifted.push('trustEmail');
  if (stored.firstBrokerLoginFlowAlias !== wanted.firstBrokerLoginFlowAlias) drifted.push('firstBrokerLoginFlowAlias');
  if (stored.postBrokerLoginFlowAlias !== wanted.postBrokerLoginFlowAlias) drifted.push('postBrokerLoginFlowAlias');
  for (const [key, value] of Object.entries(SAML_POLICY)) if (stored.config?.[key] !== value) drifted.push(key);
  return drifted;
}

/** The settings of `stored` that differ from anything `wanted` sets: what Keycloak did not keep as written. */
export function unheldSettings(stored: StoredProvider & { enabled?: boolean }, wanted: KeycloakSamlRepresentation): string[] {
  const unheld = driftedPolicy(stored, wanted);
  if (stored.enabled !== wanted.enabled) unheld.push('enabled');
  for (const [key, value] of Object.entries(wanted.config)) {
    if (!(key in SAML_POLICY) && stored.config?.[key] !== value) unheld.push(key);
  }
  return unheld;
}
