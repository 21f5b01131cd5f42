import { isoTimestamp } from '../isoTimestamp.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { DeletedSsoConnection, SamlCertificate, SsoConnectionRecord } from './ssoConnectionRecord.ts';

/** The certificates as events and answers name them: fingerprint and not_after, never the PEM. */
export const certificateSummaries = (certificates: readonly SamlCertificate[]) =>
  certificates.map((c) => ({ fingerprint_sha256: c.fingerprintSha256, not_after: isoTimestamp(c.notAfter) }));

/** What names a connection in its events, by protocol: OIDC's issuer and client, SAML's IdP entity id, SSO URL and certificates. */
function protocolFields(c: SsoConnectionRecord | DeletedSsoConnection): Record<string, unknown> {
  if (c.state === 'deleted') return c.protocol === 'oidc' ? { client_id: c.clientId } : {};
  if (c.protocol === 'oidc') return { client_id: c.clientId };
  return { sso_url: c.saml.ssoUrl, metadata_url: c.metadataUrl, certificates: certificateSummaries(c.saml.certificates) };
}

/** A connection's event (a deleted one's too), naming it by its issuer (a SAML IdP's entity id); never a secret. */
export function ssoConnectionAuditEvent(action: string, c: SsoConnectionRecord | DeletedSsoConnection, metadata: Record<string, unknown> = {}): AuditAppend {
  return {
    action,
    tenant_id: c.tenantId,
    target_id: c.id,
    target_type: 'sso_connection',
    target_name: c.issuer,
    metadata: { protocol: c.protocol, issuer: c.issuer, ...protocolFields(c), domains: c.domains, state: c.state, idp_alias: c.idpAlias, ...metadata },
  };
}

/** The domains a connection may name: verified domains of its tenant (409 naming the others). */
export function unverifiedAmong(domains: readonly string[], verified: ReadonlySet<string>): string[] {
  return domains.filter((domain) => !verified.has(domain));
}
