import { isAddressLiteral, refusedAddresses, refusedHost } from './streamTargetRule.ts';

/** Every address a host name resolves to now (platform/hostResolver.ts); a test plays DNS with its own. */
export type ResolveHost = (host: string) => Promise<string[]>;

/** Where audit streams may send: AUDIT_STREAM_ALLOWED_HOSTS, and how names are resolved. */
export interface StreamTargets {
  allowedHosts?: readonly string[];
  resolveHost: ResolveHost;
  /** The setting a refusal names (AUDIT_STREAM_ALLOWED_HOSTS unless given). */
  setting?: string;
}

/** The addresses a delivery may connect to, or why it may not. */
export type StreamTargetVerdict = { addresses: string[] } | { refused: string };

/** The host of a stream's URL as the rule compares it: lower case (the URL parser's), an IPv6 literal without brackets. */
export const streamHost = (url: string): string => new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * What a delivery to `host` may connect to now: the host's addresses (a literal address is its own), resolved once and
 * each checked, so the connection goes to a checked address and a name that resolves elsewhere later (DNS rebinding)
 * is checked again at the next delivery.
 */
export async function resolveStreamTarget(host: string, targets: StreamTargets): Promise<StreamTargetVerdict> {
  const byName = refusedHost(host, targets.allowedHosts, targets.setting);
  if (byName) return { refused: byName };
  let addresses: string[];
  try {
    addresses = isAddressLiteral(host) ? [host] : await targets.resolveHost(host);
  } catch (error) {
    return { refused: `${host} could not be resolved: ${(error as Error).message}` };
  }
  const byAddress = refusedAddresses(host, addresses, targets.allowedHosts, targets.setting);
  return byAddress ? { refused: byAddress } : { addresses };
}
