import { AppError, conflict, invalidInput, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { SsoConnectionCreate } from '../schemas/ssoConnections.ts';
import { claimableDomain } from '../domains/domainName.ts';
import { ssoConnectionAuditEvent, unverifiedAmong } from './ssoConnectionAuditEvent.ts';
import { ssoAliasOf, type IssuerEndpoints, type SsoConnectionRecord } from './ssoConnectionRecord.ts';
import type { SsoConnectionChange, SsoConnectionChangeFacts } from './ssoConnectionRepository.ts';
import { requireBelowLimit, type TenantLimits } from '../tenants/tenantLimits.ts';

/**
 * The connection rule: below the tenant's limit of connections (409 `limit_reached`); every domain named must be a
 * verified domain of the tenant (409); active from the start.
 */
export function planSsoConnection(id: string, body: SsoConnectionCreate & { domains: string[] }, endpoints: IssuerEndpoints, limits: TenantLimits) {
  return (facts: SsoConnectionChangeFacts, now: Date): SsoConnectionChange<SsoConnectionRecord> => {
    requireBelowLimit(limits, 'sso_connections', facts.ofTenant);
    const unverified = unverifiedAmong(body.domains, facts.verifiedDomains);
    if (unverified.length > 0) throw conflict(`not verified domains of this tenant: ${unverified.join(', ')}`);
    const connection: SsoConnectionRecord = {
      id,
      tenantId: facts.tenantId,
      protocol: 'oidc',
      issuer: body.issuer,
      clientId: body.client_id,
      clientSecret: body.client_secret,
      endpoints,
      domains: body.domains,
      state: 'active',
      idpAlias: ssoAliasOf(id),
      createdAt: now,
      updatedAt: now,
    };
    return { put: connection, event: ssoConnectionAuditEvent('sso.connection_created', connection), result: connection };
  };
}

/** The domains as a connection stores them: each a claimable name, lower-cased, once, sorted. */
export const connectionDomains = (domains: readonly string[] | undefined): string[] => [...new Set((domains ?? []).map(claimableDomain))].sort();

/**
 * Checks the issuer's discovery document (400 when it does not answer), then writes the connection with its sealed
 * secret, its audit event and the `syncSso` hand-off that makes it an identity provider of the tenant's organization.
 */
export async function createSsoConnection(context: RegistryContext, tenantId: string, body: SsoConnectionCreate, meta: RequestMeta): Promise<SsoConnectionRecord> {
  const { stores, effects, issuerDiscovery } = context;
  if (!(await stores.tenants.find({ by: 'id', id: tenantId }))) throw notFound('tenant');
  if (!issuerDiscovery) throw new AppError('unavailable', 'no issuer discovery is configured in this process');
  const domains = connectionDomains(body.domains);
  const discovered = await issuerDiscovery(body.issuer);
  if ('failed' in discovered) throw invalidInput(`issuer: its discovery document was not accepted: ${discovered.failed}`);
  const written = await stores.ssoConnections.change({ by: 'new', tenantId }, meta, planSsoConnection(crypto.randomUUID(), { ...body, domains }, discovered.endpoints, context.tenantLimits));
  if (!written) throw notFound('tenant');
  effects.follow({ handOffs: written.handOffs });
  return written.result;
}
