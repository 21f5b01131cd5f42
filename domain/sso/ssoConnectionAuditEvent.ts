import type { AuditAppend } from '../schemas/audit.ts';
import type { DeletedSsoConnection, SsoConnectionRecord } from './ssoConnectionRecord.ts';

/** A connection's event (a deleted one's too), naming it by its issuer; never its secret. */
export function ssoConnectionAuditEvent(action: string, c: SsoConnectionRecord | DeletedSsoConnection, metadata: Record<string, unknown> = {}): AuditAppend {
  return {
    action,
    tenant_id: c.tenantId,
    target_id: c.id,
    target_type: 'sso_connection',
    target_name: c.issuer,
    metadata: { issuer: c.issuer, client_id: c.clientId, domains: c.domains, state: c.state, idp_alias: c.idpAlias, ...metadata },
  };
}

/** The domains a connection may name: verified domains of its tenant (409 naming the others). */
export function unverifiedAmong(domains: readonly string[], verified: ReadonlySet<string>): string[] {
  return domains.filter((domain) => !verified.has(domain));
}
