import type { IssuerEndpoints } from './ssoConnectionRecord.ts';

/**
 * Reads an issuer's OIDC discovery document (api/sso/ssoIssuerDiscovery.ts): its endpoints, or why it did not answer
 * (an address refused, a timeout, a document that is not the issuer's).
 */
export type IssuerDiscovery = (issuer: string) => Promise<{ endpoints: IssuerEndpoints } | { failed: string }>;
