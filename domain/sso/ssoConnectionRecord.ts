/** Whether a tenant's SSO connection sends its users to their identity provider (SPEC-EXTENSIONS §9). */
export const SSO_CONNECTION_STATES = ['active', 'inactive'] as const;
export type SsoConnectionState = (typeof SSO_CONNECTION_STATES)[number];

/** What the issuer's discovery document says, kept with the connection so the actor need not ask it again. */
export interface IssuerEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  userinfoEndpoint: string | null;
}

/** A tenant's connection to its own OIDC identity provider; the client secret is kept sealed, never answered. */
export interface SsoConnectionRecord {
  id: string;
  tenantId: string;
  protocol: 'oidc';
  issuer: string;
  clientId: string;
  /** In the clear only in memory: sealed at rest (REGISTRY_SECRET_KEYS). */
  clientSecret: string;
  endpoints: IssuerEndpoints;
  /** Verified domains of the tenant whose users it signs in. */
  domains: string[];
  state: SsoConnectionState;
  /** The identity provider's alias in Keycloak (`sso-<id>`). */
  idpAlias: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * What the registry keeps of a deleted connection: that its identity provider alias was a tenant's, so a sign-in
 * through one still in the provider (its removal is a later step, and may fail) is refused, never taken for a broker
 * that is no tenant's (SPEC-EXTENSIONS §13).
 */
export interface DeletedSsoConnection {
  id: string;
  tenantId: string;
  issuer: string;
  clientId: string;
  domains: string[];
  state: 'deleted';
  idpAlias: string;
  deletedAt: Date;
}

/** A connection's identity provider alias in the provider, derived from its id (so a deleted one can still be named). */
export const ssoAliasOf = (connectionId: string): string => `sso-${connectionId}`;
