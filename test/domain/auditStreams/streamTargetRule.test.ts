import { describe, expect, it } from 'vitest';
import { forbiddenAddress, refusedAddresses, refusedHost } from '../../../domain/auditStreams/streamTargetRule.ts';

/** Every address a stream may not reach without AUDIT_STREAM_ALLOWED_HOSTS, with why. */
const FORBIDDEN: [string, RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['127.255.255.254', /loopback/],
  ['::1', /loopback/],
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['::', /unspecified/],
  ['10.1.2.3', /private.*1918/],
  ['172.16.0.1', /private.*1918/],
  ['172.31.255.255', /private.*1918/],
  ['192.168.1.1', /private.*1918/],
  ['fc00::1', /unique local/],
  ['fd12:3456:789a::1', /unique local/],
  ['100.64.0.1', /CGNAT/],
  ['100.127.255.255', /CGNAT/],
  ['169.254.1.1', /link-local/],
  ['fe80::1', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['169.254.169.254', /metadata/],
  ['169.254.170.2', /metadata/],
  ['100.100.100.200', /metadata/],
  ['fd00:ec2::254', /metadata/],
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['ff02::1', /multicast/],
  ['240.0.0.1', /reserved/],
  ['255.255.255.255', /reserved/],
  ['192.0.2.10', /documentation/],
  ['198.18.0.1', /benchmarking/],
  ['2001:db8::1', /documentation/],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
  ['100::1', /reserved/],
  ['::ffff:127.0.0.1', /loopback address \(IPv4-mapped 127\.0\.0\.1\)/],
  ['::ffff:7f00:1', /loopback address \(IPv4-mapped 127\.0\.0\.1\)/],
  ['::ffff:a9fe:a9fe', /metadata address \(IPv4-mapped 169\.254\.169\.254\)/],
  ['::ffff:10.0.0.1', /private/],
  ['64:ff9b::10.0.0.1', /private.*NAT64/],
  ['64:ff9b:1::1', /local-use NAT64/],
  ['2002:7f00:1::', /loopback address \(6to4 127\.0\.0\.1\)/],
  ['::127.0.0.1', /reserved/],
  ['not-an-address', /not an IP address/],
];

const PUBLIC = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '100.128.0.1', '11.0.0.1', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'];

describe('forbiddenAddress', () => {
  it.each(FORBIDDEN)('refuses %s', (address, why) => {
    expect(forbiddenAddress(address)).toMatch(why);
  });

  it.each(PUBLIC)('allows the public address %s', (address) => {
    expect(forbiddenAddress(address)).toBeUndefined();
  });
});

describe('refusedHost and refusedAddresses', () => {
  it('without AUDIT_STREAM_ALLOWED_HOSTS refuse loopback and metadata names, literal addresses that are not public, and any forbidden resolved address', () => {
    for (const host of ['localhost', 'LOCALHOST'.toLowerCase(), 'api.localhost', 'localhost.', 'metadata.google.internal', 'metadata', 'instance-data']) {
      expect(refusedHost(host, undefined), host).toBeDefined();
    }
    expect(refusedHost('127.0.0.1', undefined)).toMatch(/127\.0\.0\.1 is a loopback address; name the receiver in AUDIT_STREAM_ALLOWED_HOSTS/);
    expect(refusedHost('siem.example', undefined)).toBeUndefined();
    expect(refusedHost('8.8.8.8', undefined)).toBeUndefined();
    expect(refusedAddresses('siem.example', ['8.8.8.8', '10.0.0.1'], undefined)).toMatch(/siem.example resolves to 10.0.0.1, a private address/);
    expect(refusedAddresses('siem.example', ['8.8.8.8', '2606:4700:4700::1111'], undefined)).toBeUndefined();
    expect(refusedAddresses('siem.example', [], undefined)).toMatch(/resolves to no address/);
  });

  it('with AUDIT_STREAM_ALLOWED_HOSTS allow exactly the hosts it names, whatever they resolve to', () => {
    const allowed = ['siem.internal', 'localhost', '127.0.0.1'];
    expect(refusedHost('siem.internal', allowed)).toBeUndefined();
    expect(refusedHost('localhost', allowed)).toBeUndefined();
    expect(refusedHost('127.0.0.1', allowed)).toBeUndefined();
    expect(refusedHost('siem.example', allowed)).toMatch(/not in AUDIT_STREAM_ALLOWED_HOSTS/);
    expect(refusedHost('10.0.0.1', allowed)).toMatch(/not in AUDIT_STREAM_ALLOWED_HOSTS/);
    expect(refusedAddresses('siem.internal', ['10.0.0.7'], allowed)).toBeUndefined();
  });
});
