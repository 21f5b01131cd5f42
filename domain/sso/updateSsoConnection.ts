import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { conflict, invalidInput, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { SsoConnectionPatch } from '../schemas/ssoConnections.ts';
import { connectionDomains } from './createSsoConnection.ts';
import { readSamlMetadata } from './readSamlMetadata.ts';
import { samlMetadataChanges } from './samlMetadataChanges.ts';
import { ssoConnectionAuditEvent, unverifiedAmong } from './ssoConnectionAuditEvent.ts';
import type { SamlIdpMetadata, SsoConnectionRecord } from './ssoConnectionRecord.ts';
import type { SsoConnectionChange, SsoConnectionChangeFacts } from './ssoConnectionRepository.ts';

/** New SAML metadata a PATCH brings, read before the change is planned; `metadataUrl` null for XML. */
export type NewSamlMetadata = { metadata: SamlIdpMetadata; metadataUrl: string | null };

/** The protocol's own fields of the patch checked against the connection's protocol: 400 for another protocol's. */
function requireProtocolFields(connection: SsoConnectionRecord, patch: SsoConnectionPatch): void {
  if (connection.protocol === 'saml' && patch.client_secret !== undefined) throw invalidInput('client_secret: a SAML connection has no client secret');
  if (connection.protocol === 'oidc' && (patch.metadata_xml !== undefined || patch.metadata_url !== undefined)) throw invalidInput('metadata_xml, metadata_url: an OIDC connection has no SAML metadata');
  if (patch.metadata_xml !== undefined && patch.metadata_url !== undefined) throw invalidInput('metadata_xml, metadata_url: give the metadata one way, not both');
}

/** The connection after the patch's protocol fields: OIDC's new secret, or SAML's new metadata (read just now). */
function withProtocolFields(before: SsoConnectionRecord, patch: SsoConnectionPatch, metadata: NewSamlMetadata | undefined, now: Date): { after: SsoConnectionRecord; changes: Record<string, unknown> } {
  if (before.protocol === 'oidc') {
    if (patch.client_secret === undefined || patch.client_secret === before.clientSecret) return { after: before, changes: {} };
    return { after: { ...before, clientSecret: patch.client_secret }, changes: { client_secret: 'changed' } };
  }
  if (!metadata) return { after: before, changes: {} };
  const changes = samlMetadataChanges(before.saml, metadata.metadata);
  if (metadata.metadataUrl !== before.metadataUrl) changes.metadata_url = { old: before.metadataUrl, new: metadata.metadataUrl };
  const after = { ...before, issuer: metadata.metadata.entityId, saml: metadata.metadata, metadataUrl: metadata.metadataUrl, metadataRefresh: { refreshedAt: now, failedAt: null, error: null } };
  return { after, changes };
}

/**
 * The PATCH rule: a new OIDC secret or new SAML metadata, domains (verified ones of the tenant: 409) or state replace
 * the stored ones; the event names what changed (a new secret as `client_secret: "changed"`, never its value; new
 * metadata by the certificates added and removed and what else moved); nothing changed writes nothing.
 */
export function planSsoConnectionUpdate(patch: SsoConnectionPatch, metadata?: NewSamlMetadata) {
  return (facts: SsoConnectionChangeFacts, now: Date): SsoConnectionChange<SsoConnectionRecord> => {
    const before = facts.connection;
    if (!before) throw notFound('sso connection');
    requireProtocolFields(before, patch);
    const domains = patch.domains === undefined ? before.domains : connectionDomains(patch.domains);
    const unverified = unverifiedAmong(domains.filter((d) => !before.domains.includes(d)), facts.verifiedDomains);
    if (unverified.length > 0) throw conflict(`not verified domains of this tenant: ${unverified.join(', ')}`);
    const { after: withFields, changes } = withProtocolFields(before, patch, metadata, now);
    const after: SsoConnectionRecord = { ...withFields, domains, state: patch.state ?? before.state, updatedAt: now };
    if (after.domains.join(' ') !== before.domains.join(' ')) changes.domains = { old: before.domains, new: after.domains };
    if (after.state !== before.state) changes.state = { old: before.state, new: after.state };
    // New metadata read again is a refresh even when it changes nothing: its time is kept, no event appended.
    if (Object.keys(changes).length === 0) {
      if (withFields === before) return { result: before };
      const reread = { ...withFields, updatedAt: before.updatedAt };
      return { put: reread, sync: false, result: reread };
    }
    return { put: after, event: ssoConnectionAuditEvent('sso.connection_changed', after, { changes }), result: after };
  };
}

export async function updateSsoConnection(context: RegistryContext, id: string, patch: SsoConnectionPatch, meta: RequestMeta, reach: TenantReach): Promise<SsoConnectionRecord> {
  const { stores, effects } = context;
  const found = await stores.ssoConnections.find(id);
  if (!found) throw notFound('sso connection');
  requireReach(reach, found.tenantId, 'sso connection');
  requireProtocolFields(found, patch);
  const input = patch.metadata_xml !== undefined ? { metadata_xml: patch.metadata_xml } : patch.metadata_url !== undefined ? { metadata_url: patch.metadata_url } : undefined;
  const metadata = input ? await readSamlMetadata(context, input, new Date()) : undefined;
  const written = await stores.ssoConnections.change({ by: 'id', id }, meta, planSsoConnectionUpdate(patch, metadata));
  if (!written) throw notFound('sso connection');
  effects.follow({ handOffs: written.handOffs });
  return written.result;
}

/** Deletes the connection (`sso.connection_deleted`); its identity provider leaves Keycloak. */
export async function deleteSsoConnection({ stores, effects }: RegistryContext, id: string, meta: RequestMeta, reach: TenantReach): Promise<void> {
  const found = await stores.ssoConnections.find(id);
  if (!found) throw notFound('sso connection');
  requireReach(reach, found.tenantId, 'sso connection');
  const written = await stores.ssoConnections.change({ by: 'id', id }, meta, (facts) => {
    if (!facts.connection) throw notFound('sso connection');
    return { remove: true, event: ssoConnectionAuditEvent('sso.connection_deleted', facts.connection), result: undefined };
  });
  if (!written) throw notFound('sso connection');
  effects.follow({ handOffs: written.handOffs });
}

/** One connection of a tenant the caller may reach (404 otherwise). */
export async function getSsoConnection({ stores }: RegistryContext, id: string, reach: TenantReach): Promise<SsoConnectionRecord> {
  const found = await stores.ssoConnections.find(id);
  if (!found) throw notFound('sso connection');
  requireReach(reach, found.tenantId, 'sso connection');
  return found;
}

export async function listSsoConnections({ stores }: RegistryContext, tenantId: string): Promise<SsoConnectionRecord[]> {
  const connections = await stores.ssoConnections.ofTenant(tenantId);
  if (!connections) throw notFound('tenant');
  return connections;
}
