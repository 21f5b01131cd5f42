/**
 * Where the registry may send the audit log (SPEC-EXTENSIONS §12). Without AUDIT_STREAM_ALLOWED_HOSTS a stream may
 * reach only public addresses: none of the loopback, private, link-local, shared, reserved, multicast or cloud
 * metadata ranges, where a caller could make the registry probe or feed the deployment's own network. With it, only
 * the hosts it names, whatever they resolve to (an operator's SIEM on a private network).
 */

const METADATA = 'a cloud metadata address';
/** The setting that names allowed hosts, as a refusal tells it; an SSO issuer's check passes its own. */
const STREAM_SETTING = 'AUDIT_STREAM_ALLOWED_HOSTS';
const hint = (setting: string) => `; name the receiver in ${setting} to allow it`;

type Range = readonly [prefix: string, bits: number, reason: string];

/** First match wins: the metadata addresses before the ranges that hold them. */
const IPV4_RANGES: readonly Range[] = [
  ['169.254.169.254', 32, METADATA],
  ['169.254.170.2', 32, METADATA],
  ['100.100.100.200', 32, METADATA],
  ['0.0.0.0', 8, 'an unspecified address'],
  ['10.0.0.0', 8, 'a private address (RFC 1918)'],
  ['100.64.0.0', 10, 'a shared address (CGNAT, RFC 6598)'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address (RFC 1918)'],
  ['192.0.0.0', 24, 'a reserved address (IETF protocol assignments)'],
  ['192.0.2.0', 24, 'a reserved address (documentation)'],
  ['192.88.99.0', 24, 'a reserved address (6to4 relay anycast)'],
  ['192.168.0.0', 16, 'a private address (RFC 1918)'],
  ['198.18.0.0', 15, 'a reserved address (benchmarking)'],
  ['198.51.100.0', 24, 'a reserved address (documentation)'],
  ['203.0.113.0', 24, 'a reserved address (documentation)'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

const IPV6_RANGES: readonly Range[] = [
  ['fd00:ec2::254', 128, METADATA],
  ['::', 128, 'an unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['64:ff9b:1::', 48, 'a private address (local-use NAT64)'],
  ['fc00::', 7, 'a private address (unique local, RFC 4193)'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a private address (site-local)'],
  ['ff00::', 8, 'a multicast address'],
  ['2001:db8::', 32, 'a reserved address (documentation)'],
  ['2001::', 23, 'a reserved address (IETF protocol assignments, Teredo)'],
  ['3fff::', 20, 'a reserved address (documentation)'],
];

/** IPv6 ranges that carry an IPv4 address, judged by that address: [prefix, bits, bit offset of the IPv4 address]. */
const IPV4_CARRIERS: readonly (readonly [prefix: string, bits: number, at: number, kind: string])[] = [
  ['::ffff:0:0', 96, 96, 'IPv4-mapped'],
  ['64:ff9b::', 96, 96, 'NAT64'],
  ['2002::', 16, 16, '6to4'],
];

/** Names that always mean this machine or its cloud's metadata service, whatever a resolver says. */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

function ipv4Value(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

/** The 128-bit value of an IPv6 address (`::` compression, a trailing dotted IPv4, a zone), or undefined. */
function ipv6Value(text: string): bigint | undefined {
  let address = text.split('%')[0]!.toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const v4 = ipv4Value(dotted[2]!);
    if (v4 === undefined) return undefined;
    address = `${dotted[1]}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const inIpv4Range = (value: number, [prefix, bits]: Range) => value >>> (32 - bits) === ipv4Value(prefix)! >>> (32 - bits);
const inIpv6Range = (value: bigint, prefix: string, bits: number) => value >> BigInt(128 - bits) === ipv6Value(prefix)! >> BigInt(128 - bits);

function forbiddenIpv4(value: number): string | undefined {
  return IPV4_RANGES.find((range) => inIpv4Range(value, range))?.[2];
}

const ipv4Text = (value: number) => [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');

/** Whether `host` is an IP address rather than a name. */
export const isAddressLiteral = (host: string) => ipv4Value(host) !== undefined || ipv6Value(host) !== undefined;

/** Why the registry may not connect to `address` (an IPv4 or IPv6 address), or undefined when it is public. */
export function forbiddenAddress(address: string): string | undefined {
  const v4 = ipv4Value(address);
  if (v4 !== undefined) return forbiddenIpv4(v4);
  const v6 = ipv6Value(address);
  if (v6 === undefined) return 'not an IP address';
  const own = IPV6_RANGES.find(([prefix, bits]) => inIpv6Range(v6, prefix, bits));
  if (own) return own[2];
  for (const [prefix, bits, at, kind] of IPV4_CARRIERS) {
    if (!inIpv6Range(v6, prefix, bits)) continue;
    const carried = Number((v6 >> BigInt(128 - at - 32)) & 0xffffffffn);
    const reason = forbiddenIpv4(carried);
    return reason && `${reason} (${kind} ${ipv4Text(carried)})`;
  }
  // Only 2000::/3 is global unicast; the rest of the space is unassigned or special.
  return inIpv6Range(v6, '2000::', 3) ? undefined : 'a reserved address';
}

/** Why no stream may name `host` (lower case, an IPv6 literal without brackets) before it is even resolved. */
export function refusedHost(host: string, allowedHosts: readonly string[] | undefined, setting = STREAM_SETTING): string | undefined {
  if (allowedHosts) return allowedHosts.includes(host) ? undefined : `${host} is not in ${setting}`;
  const allowIt = hint(setting);
  const name = host.replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return `${host} is a loopback name${allowIt}`;
  if (METADATA_NAMES.has(name)) return `${host} is a cloud metadata name${allowIt}`;
  if (isAddressLiteral(host)) {
    const reason = forbiddenAddress(host);
    if (reason) return `${host} is ${reason}${allowIt}`;
  }
  return undefined;
}

/** Why a stream to `host` may not connect to what it resolved to; every address must be allowed. */
export function refusedAddresses(host: string, addresses: readonly string[], allowedHosts: readonly string[] | undefined, setting = STREAM_SETTING): string | undefined {
  if (addresses.length === 0) return `${host} resolves to no address`;
  if (allowedHosts) return undefined;
  for (const address of addresses) {
    const reason = forbiddenAddress(address);
    if (reason) return `${host} resolves to ${address}, ${reason}${hint(setting)}`;
  }
  return undefined;
}
