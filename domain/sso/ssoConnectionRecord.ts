/** Whether a tenant's SSO connection sends its users to their identity provider (SPEC-EXTENSIONS §9). */
export const SSO_CONNECTION_STATES = ['active', 'inactive'] as const;
export type SsoConnectionState = (typeof SSO_CONNECTION_STATES)[number];

/** The protocols a connection speaks to the customer's identity provider (SPEC-EXTENSIONS §9, §14). */
export const SSO_PROTOCOLS = ['oidc', 'saml'] as const;
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

/** What the issuer's discovery document says, kept with the connection so the actor need not ask it again. */
export interface IssuerEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  userinfoEndpoint: string | null;
}

/** A signing certificate of a SAML identity provider, as its metadata names it (domain/sso/samlMetadata.ts). */
export interface SamlCertificate {
  /** One PEM CERTIFICATE block. */
  pem: string;
  /** SHA-256 of the DER, upper-case hex pairs joined by colons (node:crypto's fingerprint256). */
  fingerprintSha256: string;
  notAfter: Date;
}

/** The SAML identity provider as its metadata describes it: what the identity provider's broker is made of. */
export interface SamlIdpMetadata {
  /** The IdP's entityID: the Issuer its responses must name. */
  entityId: string;
  /** Its SingleSignOnService the sign-in requests go to, by the binding named. */
  ssoUrl: string;
  ssoBinding: 'post' | 'redirect';
  /** Whether the IdP asks for signed AuthnRequests (WantAuthnRequestsSigned). */
  wantAuthnRequestsSigned: boolean;
  /** Every certificate the metadata names for signing, in its order (a rollover names the old and the new). */
  certificates: SamlCertificate[];
}

/** When a connection's metadata URL was last read, and how the last try after that failed (cleared by a success). */
export interface SamlMetadataRefresh {
  refreshedAt: Date;
  failedAt: Date | null;
  error: string | null;
}

interface SsoConnectionCommon {
  id: string;
  tenantId: string;
  /** Verified domains of the tenant whose users it signs in. */
  domains: string[];
  state: SsoConnectionState;
  /** The identity provider's alias in Keycloak (`sso-<id>`). */
  idpAlias: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A tenant's connection to its own OIDC identity provider; the client secret is kept sealed, never answered. */
export interface OidcSsoConnectionRecord extends SsoConnectionCommon {
  protocol: 'oidc';
  issuer: string;
  clientId: string;
  /** In the clear only in memory: sealed at rest (REGISTRY_SECRET_KEYS). */
  clientSecret: string;
  endpoints: IssuerEndpoints;
}

/**
 * A tenant's connection to its own SAML identity provider, made from its metadata (given as XML, or as a URL the
 * tenant's actor reads again every SSO_METADATA_REFRESH_HOURS).
 */
export interface SamlSsoConnectionRecord extends SsoConnectionCommon {
  protocol: 'saml';
  /** The IdP's entity id (saml.entityId): what names the connection in its events, as an OIDC issuer does. */
  issuer: string;
  saml: SamlIdpMetadata;
  /** Where the metadata is read again; null for metadata given as XML. */
  metadataUrl: string | null;
  metadataRefresh: SamlMetadataRefresh;
}

export type SsoConnectionRecord = OidcSsoConnectionRecord | SamlSsoConnectionRecord;

/**
 * What the registry keeps of a deleted connection: that its identity provider alias was a tenant's, so a sign-in
 * through one still in the provider (its removal is a later step, and may fail) is refused, never taken for a broker
 * that is no tenant's (SPEC-EXTENSIONS §13).
 */
export interface DeletedSsoConnection {
  id: string;
  tenantId: string;
  protocol: SsoProtocol;
  /** The OIDC issuer, or the SAML IdP's entity id. */
  issuer: string;
  /** The OIDC client id; null for SAML. */
  clientId: string | null;
  domains: string[];
  state: 'deleted';
  idpAlias: string;
  deletedAt: Date;
}

/** A connection's identity provider alias in the provider, derived from its id (so a deleted one can still be named). */
export const ssoAliasOf = (connectionId: string): string => `sso-${connectionId}`;
