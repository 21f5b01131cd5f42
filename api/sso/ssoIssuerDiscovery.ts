import { fetch } from 'undici';
import { resolveStreamTarget, streamHost, type ResolveHost } from '../../domain/auditStreams/streamTargets.ts';
import type { IssuerDiscovery } from '../../domain/sso/issuerDiscovery.ts';
import { agentPinnedTo } from '../../platform/pinnedAgent.ts';
import { discoveryUrl } from '../auth/oidcDiscovery.ts';

const httpUrl = (value: unknown): string | undefined => {
  const url = typeof value === 'string' ? URL.parse(value) : null;
  return url?.protocol === 'https:' || url?.protocol === 'http:' ? url.href : undefined;
};

/**
 * Reads an SSO issuer's discovery document as the registry reaches any address a caller names: the issuer's host must
 * be allowed (SSO_ISSUER_ALLOWED_HOSTS, else public addresses only, as for audit streams) and the connection goes to
 * the address that was checked; no redirect is followed; the whole exchange within `timeoutMs`. The document must
 * name the issuer itself (OIDC Discovery 1.0 §4.3) and its authorization, token and JWKS endpoints.
 */
export function ssoIssuerDiscovery(options: { allowedHosts?: readonly string[]; resolveHost: ResolveHost; timeoutMs: number }): IssuerDiscovery {
  return async (issuer) => {
    const target = await resolveStreamTarget(streamHost(issuer), { allowedHosts: options.allowedHosts, resolveHost: options.resolveHost });
    if ('refused' in target) return { failed: target.refused };
    const dispatcher = agentPinnedTo(target.addresses);
    try {
      const response = await fetch(discoveryUrl(issuer), {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        dispatcher,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (response.status !== 200) return { failed: `HTTP ${response.status}` };
      const document = (await response.json()) as Record<string, unknown> | null;
      if (typeof document !== 'object' || document === null) return { failed: 'the document is not a JSON object' };
      if (document.issuer !== issuer) return { failed: `the document names issuer ${String(document.issuer)}` };
      const authorizationEndpoint = httpUrl(document.authorization_endpoint);
      const tokenEndpoint = httpUrl(document.token_endpoint);
      const jwksUri = httpUrl(document.jwks_uri);
      if (!authorizationEndpoint || !tokenEndpoint || !jwksUri) return { failed: 'the document lacks an authorization, token or JWKS endpoint' };
      return { endpoints: { authorizationEndpoint, tokenEndpoint, jwksUri, userinfoEndpoint: httpUrl(document.userinfo_endpoint) ?? null } };
    } catch (error) {
      return { failed: (error as Error).name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : (error as Error).message };
    } finally {
      await dispatcher.close();
    }
  };
}
