import { refusedHost } from '../auditStreams/streamTargetRule.ts';
import { streamHost } from '../auditStreams/streamTargets.ts';

/** The setting that lets an issuer's URLs reach named hosts, whatever they resolve to, and over http. */
export const ISSUER_SETTING = 'SSO_ISSUER_ALLOWED_HOSTS';

/** The URLs of a discovery document the identity provider will call or send people to, each held to the issuer's rule. */
export const DISCOVERY_URL_FIELDS = ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint', 'end_session_endpoint'] as const;

/**
 * Why an issuer, or a URL its discovery document names, may not be used, judged before any look-up: it must be an
 * https URL without credentials (http only at a host SSO_ISSUER_ALLOWED_HOSTS names), at a host that setting names or,
 * without it, not at a loopback, private, link-local or metadata name or address (the audit streams' rule).
 */
export function refusedIssuerUrl(text: string, allowedHosts: readonly string[] | undefined): string | undefined {
  const url = URL.parse(text);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return `${text} is not an http(s) URL`;
  if (url.username || url.password) return `${url.host} carries credentials in its URL`;
  const host = streamHost(url.href);
  if (url.protocol === 'http:' && !allowedHosts?.includes(host)) return `${url.origin} is not https (http only at a host ${ISSUER_SETTING} names)`;
  return refusedHost(host, allowedHosts, ISSUER_SETTING);
}
