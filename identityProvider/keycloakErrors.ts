/** How Keycloak's answers and transport failures become IdpError values. */
import { NetworkError } from '@keycloak/keycloak-admin-client';
import { IdpError } from './identityProvider.ts';
import type { IdpFailureKind } from '../domain/provisioning/provisioningVocabulary.ts';

/**
 * The one mapping from an HTTP status (plus, from the token endpoint, the OAuth error code) to a failure kind.
 * 409 comes back as `rejected`: only the caller knows whether a conflict means "exists already" or "lost a race".
 */
export function kindForStatus(status: number, oauthError?: string): IdpFailureKind {
  // 403: the admin client lacks a realm-management role (manage-users, manage-organizations, view-realm), an admin-client problem too.
  if (status === 401 || status === 403) return 'unauthorized';
  // RFC 6749 §5.2: bad client credentials may come back as 400 invalid_client; Keycloak says unauthorized_client.
  if (oauthError === 'invalid_client' || oauthError === 'unauthorized_client') return 'unauthorized';
  if (status === 408 || status === 429 || status >= 500) return 'unavailable';
  return 'rejected';
}

export function idpErrorForStatus(status: number, action: string, detail?: string, oauthError?: string): IdpError {
  return new IdpError(
    kindForStatus(status, oauthError),
    `Keycloak answered HTTP ${status} to ${action}${detail ? `: ${detail}` : ''}`,
    status,
  );
}

/** The HTTP status of a failed admin call, when Keycloak answered at all. */
export function statusOf(err: unknown): number | undefined {
  if (err instanceof IdpError) return err.status;
  return err instanceof NetworkError ? err.response.status : undefined;
}

/**
 * Converts whatever an admin call threw. The message is built from the status, Keycloak's own error text and the
 * transport error's code only; request data (headers, bodies, credentials) never goes into it, nor a `cause`.
 */
export function toIdpError(err: unknown, action: string): IdpError {
  if (err instanceof IdpError) return err;
  if (err instanceof NetworkError) return idpErrorForStatus(err.response.status, action, keycloakErrorText(err.responseData));
  if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new IdpError('unavailable', `Keycloak did not answer ${action} in time`);
  }
  // fetch() rejects with a TypeError whose cause carries the socket error (ECONNREFUSED, ENOTFOUND, ...).
  if (err instanceof TypeError && err.message === 'fetch failed') {
    const code = (err.cause as { code?: unknown } | undefined)?.code;
    return new IdpError('unavailable', `Keycloak unreachable for ${action}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  // Anything else happened on the way, not in Keycloak's answer: a body cut off mid-read (undici's "terminated"), a
  // truncated JSON document, a socket error without a response. Retryable: the workflow's retry policy bounds it,
  // and a transient fault must not fail a provisioning for good.
  const name = err instanceof Error ? err.name : typeof err;
  return new IdpError('unavailable', `unexpected ${name} during ${action}: ${err instanceof Error ? err.message : String(err)}`);
}

/** Keycloak's error bodies: {errorMessage} from admin resources, {error, error_description} from OAuth and JAX-RS. */
export function keycloakErrorText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  const text = [fields.errorMessage, fields.error_description, fields.error].find((value) => typeof value === 'string');
  return typeof text === 'string' ? text.slice(0, 200) : undefined;
}
