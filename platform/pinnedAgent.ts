import { isIP } from 'node:net';
import { Agent } from 'undici';

/**
 * An HTTP agent whose connections go only to `addresses`, whatever name a request's URL gives: the caller resolved
 * and checked that name, and nothing resolves it again between the check and the connection. The request still
 * speaks to the name: Host is the URL's, and TLS sends it as SNI and verifies the certificate against it.
 */
export function agentPinnedTo(addresses: readonly string[]): Agent {
  if (addresses.length === 0) throw new Error('a pinned agent needs at least one address');
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return new Agent({
    connect: {
      lookup: (_hostname, options, callback) => {
        if (options.all) callback(null, entries);
        else callback(null, entries[0]!.address, entries[0]!.family);
      },
    },
  });
}
