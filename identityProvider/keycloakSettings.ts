/** Settings of the real identity-provider adapter; an empty IDP_ADMIN_URL selects the simulated provider instead. */
import { RedactedSecret } from './redactedSecret.ts';

export type KeycloakSettings = {
  /** Keycloak's base URL (scheme, host, optional path prefix such as /auth), without a trailing slash. */
  url: string;
  /** The realm that holds the tenants' organizations and users, and the admin client. */
  realm: string;
  clientId: string;
  clientSecret: RedactedSecret;
  /** client_id the invite's action link returns to after the required actions (optional). */
  inviteClientId?: string;
  /** Where the action link sends the user afterwards; Keycloak only accepts it together with a client id. */
  inviteRedirectUri?: string;
  inviteLifespanSeconds: number;
  /** Bounds every single HTTP exchange with Keycloak (token and admin calls), body included. */
  httpTimeoutMs: number;
};

const DEFAULT_INVITE_LIFESPAN_SECONDS = 7 * 24 * 60 * 60;
const DEFAULT_HTTP_TIMEOUT_MS = 5000;

/**
 * Returns undefined when IDP_ADMIN_URL is empty. Otherwise the realm, client id and secret are required (no default
 * realm: silently provisioning into `master` would be worse than refusing to start) and every missing or invalid
 * setting is named in one Error. The secret's value never appears in that Error.
 */
export function loadKeycloakSettings(env: NodeJS.ProcessEnv): KeycloakSettings | undefined {
  const rawUrl = text(env.IDP_ADMIN_URL);
  if (rawUrl === undefined) return undefined;

  const problems: string[] = [];
  const required = (name: string): string => {
    const value = text(env[name]);
    if (value === undefined) problems.push(`${name} is required when IDP_ADMIN_URL is set`);
    return value ?? '';
  };
  const positiveInteger = (name: string, fallback: number): number => {
    const value = text(env[name]);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) === 0) problems.push(`${name} must be a positive integer`);
    return Number(value);
  };

  const url = URL.parse(rawUrl);
  if ((url?.protocol !== 'http:' && url?.protocol !== 'https:') || url.search || url.hash) {
    problems.push('IDP_ADMIN_URL must be an absolute http(s) URL without query or fragment');
  }
  const settings: KeycloakSettings = {
    url: rawUrl.replace(/\/+$/, ''),
    realm: required('IDP_ADMIN_REALM'),
    clientId: required('IDP_ADMIN_CLIENT_ID'),
    clientSecret: new RedactedSecret(required('IDP_ADMIN_CLIENT_SECRET')),
    inviteClientId: text(env.IDP_INVITE_CLIENT_ID),
    inviteRedirectUri: text(env.IDP_INVITE_REDIRECT_URI),
    inviteLifespanSeconds: positiveInteger('IDP_INVITE_LIFESPAN_SECONDS', DEFAULT_INVITE_LIFESPAN_SECONDS),
    httpTimeoutMs: positiveInteger('IDP_HTTP_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUT_MS),
  };
  if (settings.inviteRedirectUri !== undefined) {
    const redirect = URL.parse(settings.inviteRedirectUri);
    if (redirect?.protocol !== 'http:' && redirect?.protocol !== 'https:') {
      problems.push('IDP_INVITE_REDIRECT_URI must be an absolute http(s) URL');
    }
    // Keycloak answers 400 to an action-link request with redirect_uri but no client_id.
    if (settings.inviteClientId === undefined) problems.push('IDP_INVITE_REDIRECT_URI needs IDP_INVITE_CLIENT_ID');
  }
  if (problems.length > 0) throw new Error(`Invalid identity provider configuration: ${problems.join('; ')}`);
  return settings;
}

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
