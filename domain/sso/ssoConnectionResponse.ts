import { isoTimestamp } from '../isoTimestamp.ts';
import type { SsoConnection } from '../schemas/ssoConnections.ts';
import type { SsoConnectionRecord } from './ssoConnectionRecord.ts';

/** The connection as answered: never its secret. */
export const toSsoConnection = (c: SsoConnectionRecord): SsoConnection => ({
  id: c.id,
  tenant_id: c.tenantId,
  protocol: c.protocol,
  issuer: c.issuer,
  client_id: c.clientId,
  domains: c.domains,
  state: c.state,
  idp_alias: c.idpAlias,
  created_at: isoTimestamp(c.createdAt),
  updated_at: isoTimestamp(c.updatedAt),
});
