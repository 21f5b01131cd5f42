import providers from 'email-providers/all.json' with { type: 'json' };
import { parse } from 'tldts';
import { invalidInput } from '../errors.ts';

const CONSUMER_MAIL_DOMAINS: ReadonlySet<string> = new Set(providers as string[]);

/**
 * The domain the service suggests, in its refusals and the portal's hint: one it takes (example.com is on the
 * consumer mail list, so a customer who typed the suggestion was refused).
 */
export const SUGGESTED_DOMAIN = 'yourcompany.com';
/** Letters, digits and hyphens, 1–63 a label, not starting or ending with a hyphen; 253 in all. */
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A domain a tenant may claim, lower-cased and without a trailing dot: a hostname of at least two labels, not itself a
 * public suffix (ICANN's or a private one such as github.io, by the Public Suffix List that `tldts` ships), not a
 * consumer mail domain (gmail.com: its users are nobody's employees; the `email-providers` list), not an IP address.
 */
export function claimableDomain(input: string): string {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  if (!HOSTNAME.test(domain) || !domain.includes('.')) throw invalidInput(`domain: must be a domain name such as ${SUGGESTED_DOMAIN}`);
  const parsed = parse(domain, { allowPrivateDomains: true });
  if (parsed.isIp) throw invalidInput('domain: must be a domain name, not an address');
  if (!parsed.domain || parsed.publicSuffix === domain) throw invalidInput(`domain: ${domain} is a public suffix, which no tenant can hold`);
  if (CONSUMER_MAIL_DOMAINS.has(domain) || CONSUMER_MAIL_DOMAINS.has(parsed.domain)) {
    throw invalidInput(`domain: ${domain} is a consumer mail domain, which no tenant can hold`);
  }
  return domain;
}
