import { resolveStreamTarget, streamHost, type ResolveHost } from '../auditStreams/streamTargets.ts';
import { ISSUER_SETTING, refusedIssuerUrl } from './issuerAddressRule.ts';

/** The addresses a request to a URL may connect to, or why it may not be made. */
export type AddressCheck = (url: string) => Promise<{ addresses: string[] } | { refused: string }>;

/**
 * The issuer address rule for a URL the registry itself reads (a SAML metadata URL): the URL by refusedIssuerUrl, then
 * its host's addresses as they resolve now, each checked, so the request goes to an address that was checked.
 */
export function issuerAddressCheck(options: { allowedHosts?: readonly string[]; resolveHost: ResolveHost }): AddressCheck {
  return async (url) => {
    const byUrl = refusedIssuerUrl(url, options.allowedHosts);
    if (byUrl) return { refused: byUrl };
    return resolveStreamTarget(streamHost(url), { allowedHosts: options.allowedHosts, resolveHost: options.resolveHost, setting: ISSUER_SETTING });
  };
}
