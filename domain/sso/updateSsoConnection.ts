import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { conflict, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { SsoConnectionPatch } from '../schemas/ssoConnections.ts';
import { connectionDomains } from './createSsoConnection.ts';
import { ssoConnectionAuditEvent, unverifiedAmong } from './ssoConnectionAuditEvent.ts';
import type { SsoConnectionRecord } from './ssoConnectionRecord.ts';
import type { SsoConnectionChange, SsoConnectionChangeFacts } from './ssoConnectionRepository.ts';

/**
 * The PATCH rule: a new secret, domains (verified ones of the tenant: 409) or state replace the stored ones; the event
 * names what changed (a new secret as `client_secret: "changed"`, never its value); nothing changed writes nothing.
 */
export function planSsoConnectionUpdate(patch: SsoConnectionPatch) {
  return (facts: SsoConnectionChangeFacts, now: Date): SsoConnectionChange<SsoConnectionRecord> => {
    const before = facts.connection;
    if (!before) throw notFound('sso connection');
    const domains = patch.domains === undefined ? before.domains : connectionDomains(patch.domains);
    const unverified = unverifiedAmong(domains.filter((d) => !before.domains.includes(d)), facts.verifiedDomains);
    if (unverified.length > 0) throw conflict(`not verified domains of this tenant: ${unverified.join(', ')}`);
    const after: SsoConnectionRecord = { ...before, domains, state: patch.state ?? before.state, clientSecret: patch.client_secret ?? before.clientSecret, updatedAt: now };
    const changes: Record<string, unknown> = {};
    if (after.domains.join(' ') !== before.domains.join(' ')) changes.domains = { old: before.domains, new: after.domains };
    if (after.state !== before.state) changes.state = { old: before.state, new: after.state };
    if (after.clientSecret !== before.clientSecret) changes.client_secret = 'changed';
    if (Object.keys(changes).length === 0) return { result: before };
    return { put: after, event: ssoConnectionAuditEvent('sso.connection_changed', after, { changes }), result: after };
  };
}

export async function updateSsoConnection(
  { stores, effects }: RegistryContext,
  id: string,
  patch: SsoConnectionPatch,
  meta: RequestMeta,
  reach: TenantReach,
): Promise<SsoConnectionRecord> {
  const found = await stores.ssoConnections.find(id);
  if (!found) throw notFound('sso connection');
  requireReach(reach, found.tenantId, 'sso connection');
  const written = await stores.ssoConnections.change({ by: 'id', id }, meta, planSsoConnectionUpdate(patch));
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

export async function listSsoConnections({ stores }: RegistryContext, tenantId: string): Promise<SsoConnectionRecord[]> {
  const connections = await stores.ssoConnections.ofTenant(tenantId);
  if (!connections) throw notFound('tenant');
  return connections;
}
