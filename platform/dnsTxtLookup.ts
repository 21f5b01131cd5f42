import { Resolver } from 'node:dns/promises';

/** The resolver's answers that mean "no such record": the name or its TXT records do not exist. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * TXT look-ups at `servers` (`host:port` each, DNS_SERVERS; empty: the system's resolvers), each bounded by
 * `timeoutMs` a try and two tries a server. A name without TXT records answers no values; a resolver that does not
 * answer, refuses or fails answers `unavailable` with its code, so a caller never takes it for a missing record.
 */
export function dnsTxtLookup(servers: readonly string[], timeoutMs: number): (name: string) => Promise<{ values: string[] } | { unavailable: string }> {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return async (name) => {
    try {
      return { values: (await resolver.resolveTxt(name)).map((strings) => strings.join('')) };
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'EUNKNOWN';
      if (ABSENT.has(code)) return { values: [] };
      return { unavailable: code };
    }
  };
}
