/** OpenID Connect Discovery: where an issuer publishes its signing keys. */

export type DiscoveryDocument = { issuer: string; jwks_uri: string };

export function discoveryUrl(issuer: string): string {
  // OIDC Discovery 1.0 §4: the well-known path is appended after removing any trailing slash of the issuer.
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

/** Fetches and checks the issuer's discovery document; the timeout also bounds reading the body. */
export async function fetchDiscoveryDocument(issuer: string, timeoutMs: number): Promise<DiscoveryDocument> {
  const response = await fetch(discoveryUrl(issuer), {
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status !== 200) throw new Error(`OIDC discovery answered HTTP ${response.status}`);
  const document: unknown = await response.json();
  if (typeof document !== 'object' || document === null) throw new Error('OIDC discovery document is not a JSON object');

  const { issuer: advertised, jwks_uri: jwksUri } = document as Record<string, unknown>;
  // OIDC Discovery 1.0 §4.3: a document naming another issuer must not be used (prevents issuer impersonation).
  if (advertised !== issuer) throw new Error(`OIDC discovery document names issuer ${String(advertised)}, expected ${issuer}`);
  const url = typeof jwksUri === 'string' ? URL.parse(jwksUri) : null;
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') {
    throw new Error('OIDC discovery document has no absolute http(s) jwks_uri');
  }
  return { issuer, jwks_uri: url.href };
}
