import { fetch } from 'undici';
import { resolveStreamTarget, streamHost, type ResolveHost } from '../../domain/auditStreams/streamTargets.ts';
import type { IssuerDiscovery } from '../../domain/sso/issuerDiscovery.ts';
import { DISCOVERY_URL_FIELDS, ISSUER_SETTING, refusedIssuerUrl } from '../../domain/sso/issuerAddressRule.ts';
import { agentPinnedTo } from '../../platform/pinnedAgent.ts';
import { discoveryUrl } from '../auth/oidcDiscovery.ts';

type Options = { allowedHosts?: readonly string[]; resolveHost: ResolveHost; timeoutMs: number };

/** Why `url` may not be used: the issuer's address rule, then what its host resolves to now; undefined when it may. */
async function refusedAddress(url: string, options: Options): Promise<string | undefined> {
  const byUrl = refusedIssuerUrl(url, options.allowedHosts);
  if (byUrl) return byUrl;
  const target = await resolveStreamTarget(streamHost(url), { allowedHosts: options.allowedHosts, resolveHost: options.resolveHost, setting: ISSUER_SETTING });
  return 'refused' in target ? target.refused : undefined;
}

/**
 * Reads an SSO issuer's discovery document as the registry reaches any address a caller names: the issuer must pass
 * the issuer's address rule (domain/sso/issuerAddressRule.ts: https, its host allowed by SSO_ISSUER_ALLOWED_HOSTS or
 * public) and the connection goes to the address that was checked; no redirect is followed; the whole exchange within
 * `timeoutMs`. The document must name the issuer itself (OIDC Discovery 1.0 §4.3) and its authorization, token and
 * JWKS endpoints, and every URL it names that the identity provider will call or send people to passes the same rule,
 * so a tenant cannot point Keycloak at the deployment's own network through its document.
 */
export function ssoIssuerDiscovery(options: Options): IssuerDiscovery {
  return async (issuer) => {
    const byUrl = refusedIssuerUrl(issuer, options.allowedHosts);
    if (byUrl) return { failed: byUrl };
    const target = await resolveStreamTarget(streamHost(issuer), { allowedHosts: options.allowedHosts, resolveHost: options.resolveHost, setting: ISSUER_SETTING });
    if ('refused' in target) return { failed: target.refused };
    const dispatcher = agentPinnedTo(target.addresses);
    let document: Record<string, unknown>;
    try {
      const response = await fetch(discoveryUrl(issuer), {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        dispatcher,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (response.status !== 200) return { failed: `HTTP ${response.status}` };
      const body = (await response.json()) as Record<string, unknown> | null;
      if (typeof body !== 'object' || body === null) return { failed: 'the document is not a JSON object' };
      document = body;
    } catch (error) {
      return { failed: (error as Error).name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : (error as Error).message };
    } finally {
      await dispatcher.close();
    }
    if (document.issuer !== issuer) return { failed: `the document names issuer ${String(document.issuer)}` };
    const urls: Partial<Record<(typeof DISCOVERY_URL_FIELDS)[number], string>> = {};
    for (const field of DISCOVERY_URL_FIELDS) {
      const value = document[field];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') return { failed: `its ${field} is not a URL` };
      const refused = await refusedAddress(value, options);
      if (refused) return { failed: `its ${field}: ${refused}` };
      urls[field] = new URL(value).href;
    }
    const { authorization_endpoint: authorizationEndpoint, token_endpoint: tokenEndpoint, jwks_uri: jwksUri } = urls;
    if (!authorizationEndpoint || !tokenEndpoint || !jwksUri) return { failed: 'the document lacks an authorization, token or JWKS endpoint' };
    return { endpoints: { authorizationEndpoint, tokenEndpoint, jwksUri, userinfoEndpoint: urls.userinfo_endpoint ?? null } };
  };
}
