import { isoTimestamp } from '../isoTimestamp.ts';
import type { SsoConnection } from '../schemas/ssoConnections.ts';
import { certificateSummaries } from './ssoConnectionAuditEvent.ts';
import type { SsoConnectionRecord } from './ssoConnectionRecord.ts';
import type { SsoServiceProviderOf } from './ssoServiceProvider.ts';

/**
 * The connection as answered: never a secret nor a certificate's PEM; with `sp`, what the customer enters at its own
 * identity provider (SAML's entity id, ACS and metadata URLs; OIDC's redirect URI).
 */
export function toSsoConnection(c: SsoConnectionRecord, serviceProviderOf: SsoServiceProviderOf): SsoConnection {
  const sp = serviceProviderOf(c.idpAlias);
  const common = {
    id: c.id,
    tenant_id: c.tenantId,
    domains: c.domains,
    state: c.state,
    idp_alias: c.idpAlias,
    created_at: isoTimestamp(c.createdAt),
    updated_at: isoTimestamp(c.updatedAt),
  };
  if (c.protocol === 'oidc') return { ...common, protocol: 'oidc', issuer: c.issuer, client_id: c.clientId, sp: { redirect_uri: sp.redirectUri } };
  return {
    ...common,
    protocol: 'saml',
    saml: {
      idp_entity_id: c.saml.entityId,
      sso_url: c.saml.ssoUrl,
      certificates: certificateSummaries(c.saml.certificates),
      metadata_url: c.metadataUrl,
      metadata_refreshed_at: isoTimestamp(c.metadataRefresh.refreshedAt),
      metadata_refresh_error: c.metadataRefresh.error,
    },
    sp: { entity_id: sp.entityId, acs_url: sp.acsUrl, metadata_url: sp.metadataUrl },
  };
}
