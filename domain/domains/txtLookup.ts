/**
 * Looks up the TXT records at a name (DNS_SERVERS, a bounded time): their values (each record's strings joined), an
 * empty list when the name has none, or `unavailable` when the resolver did not answer (platform/dnsTxtLookup.ts).
 */
export type TxtLookup = (name: string) => Promise<{ values: string[] } | { unavailable: string }>;
