/** Resolves a token's verification key from the issuer's JWKS, found through OIDC discovery on first use. */
import { createRemoteJWKSet, type JWTVerifyGetKey, type RemoteJWKSet } from 'jose';
import type { EnabledAuthConfig } from './authConfig.ts';
import { fetchDiscoveryDocument } from './oidcDiscovery.ts';

export function createIssuerKeys(config: EnabledAuthConfig): JWTVerifyGetKey {
  let keySet: Promise<RemoteJWKSet> | undefined;

  // Discovery runs lazily so the service starts while the issuer is down; a failure is forgotten so a later request retries.
  const discover = (): Promise<RemoteJWKSet> => {
    keySet ??= fetchDiscoveryDocument(config.issuer, config.httpTimeoutMs).then(
      (document) =>
        // An unknown kid refetches the JWKS at most once per cooldown: key rotation needs no restart,
        // and a flood of forged kids cannot flood the issuer.
        createRemoteJWKSet(new URL(document.jwks_uri), {
          timeoutDuration: config.httpTimeoutMs,
          cooldownDuration: config.jwksCooldownMs,
        }),
      (err: unknown) => {
        keySet = undefined;
        throw err;
      },
    );
    return keySet;
  };

  return async (protectedHeader, token) => (await discover())(protectedHeader, token);
}
