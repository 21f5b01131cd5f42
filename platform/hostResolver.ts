import { lookup } from 'node:dns/promises';

/**
 * Every address the system resolver gives for `host` now, as a connection would look it up (getaddrinfo: DNS, and the
 * hosts file), within `timeoutMs`: a resolver that does not answer fails the caller instead of holding it.
 */
export function systemHostResolver(timeoutMs: number): (host: string) => Promise<string[]> {
  return async (host) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const answers = await Promise.race([lookup(host, { all: true, order: 'verbatim' }), timeout]);
      return answers.map((answer) => answer.address);
    } finally {
      clearTimeout(timer);
    }
  };
}
