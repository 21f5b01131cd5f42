import { AppError, conflict, invalidInput, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { OidcSsoConnectionCreate, SsoConnectionCreate } from '../schemas/ssoConnections.ts';
import { claimableDomain } from '../domains/domainName.ts';
import { ssoConnectionAuditEvent, unverifiedAmong } from './ssoConnectionAuditEvent.ts';
import { ssoAliasOf, type IssuerEndpoints, type SamlIdpMetadata, type SsoConnectionRecord } from './ssoConnectionRecord.ts';
import type { SsoConnectionChange, SsoConnectionChangeFacts } from './ssoConnectionRepository.ts';
import { requireBelowLimit, type TenantLimits } from '../tenants/tenantLimits.ts';
import { readSamlMetadata } from './readSamlMetadata.ts';

/** What a new connection is made of, by protocol: OIDC's client and discovered endpoints, or SAML's metadata. */
export type SsoConnectionMaterial =
  | { protocol: 'oidc'; issuer: string; clientId: string; clientSecret: string; endpoints: IssuerEndpoints }
  | { protocol: 'saml'; metadata: SamlIdpMetadata; metadataUrl: string | null };

/**
 * The connection rule: below the tenant's limit of connections (409 `limit_reached`); every domain named must be a
 * verified domain of the tenant (409); active from the start.
 */
export function planSsoConnection(id: string, domains: string[], material: SsoConnectionMaterial, limits: TenantLimits) {
  return (facts: SsoConnectionChangeFacts, now: Date): SsoConnectionChange<SsoConnectionRecord> => {
    requireBelowLimit(limits, 'sso_connections', facts.ofTenant);
    const unverified = unverifiedAmong(domains, facts.verifiedDomains);
    if (unverified.length > 0) throw conflict(`not verified domains of this tenant: ${unverified.join(', ')}`);
    const common = { id, tenantId: facts.tenantId, domains, state: 'active' as const, idpAlias: ssoAliasOf(id), createdAt: now, updatedAt: now };
    const connection: SsoConnectionRecord =
      material.protocol === 'oidc'
        ? { ...common, ...material }
        : {
            ...common,
            protocol: 'saml',
            issuer: material.metadata.entityId,
            saml: material.metadata,
            metadataUrl: material.metadataUrl,
            metadataRefresh: { refreshedAt: now, failedAt: null, error: null },
          };
    return { put: connection, event: ssoConnectionAuditEvent('sso.connection_created', connection), result: connection };
  };
}

/** The domains as a connection stores them: each a claimable name, lower-cased, once, sorted. */
export const connectionDomains = (domains: readonly string[] | undefined): string[] => [...new Set((domains ?? []).map(claimableDomain))].sort();

/** OIDC's material: the issuer's discovery document must answer (400 otherwise). */
async function oidcMaterial({ issuerDiscovery }: RegistryContext, body: OidcSsoConnectionCreate): Promise<SsoConnectionMaterial> {
  if (!issuerDiscovery) throw new AppError('unavailable', 'no issuer discovery is configured in this process');
  const discovered = await issuerDiscovery(body.issuer);
  if ('failed' in discovered) throw invalidInput(`issuer: its discovery document was not accepted: ${discovered.failed}`);
  return { protocol: 'oidc', issuer: body.issuer, clientId: body.client_id, clientSecret: body.client_secret, endpoints: discovered.endpoints };
}

/**
 * Checks what the connection is made of (an OIDC issuer's discovery document, a SAML identity provider's metadata:
 * 400 when refused), then writes the connection (an OIDC secret sealed), its audit event and the `syncSso` hand-off
 * that makes it an identity provider of the tenant's organization.
 */
export async function createSsoConnection(context: RegistryContext, tenantId: string, body: SsoConnectionCreate, meta: RequestMeta): Promise<SsoConnectionRecord> {
  const { stores, effects } = context;
  if (!(await stores.tenants.find({ by: 'id', id: tenantId }))) throw notFound('tenant');
  const domains = connectionDomains(body.domains);
  const material: SsoConnectionMaterial =
    body.protocol === 'saml' ? { protocol: 'saml', ...(await readSamlMetadata(context, body, new Date())) } : await oidcMaterial(context, body);
  const written = await stores.ssoConnections.change({ by: 'new', tenantId }, meta, planSsoConnection(crypto.randomUUID(), domains, material, context.tenantLimits));
  if (!written) throw notFound('tenant');
  effects.follow({ handOffs: written.handOffs });
  return written.result;
}
