/** The admin client's client-credentials token: fetched once, shared, refreshed before it expires. */
import type { Logger } from '../platform/logger.ts';
import { IdpError } from './identityProvider.ts';
import { idpErrorForStatus, toIdpError } from './keycloakErrors.ts';
import type { KeycloakSettings } from './keycloakSettings.ts';

/** Refresh once this much of the lifetime is left: 10 % of it, at most 30 s (a 300 s Keycloak token lives 270 s here). */
const REFRESH_SHARE = 0.1;
const MAX_REFRESH_MARGIN_MS = 30_000;

type CachedToken = { value: string; refreshAt: number };

export type AdminTokenOptions = {
  /** Clock in ms since the epoch; tests move it to cross the refresh point. */
  now?: () => number;
  log?: Logger;
};

export class KeycloakAdminToken {
  readonly #settings: KeycloakSettings;
  readonly #tokenUrl: string;
  readonly #now: () => number;
  readonly #log: Logger | undefined;
  #cached: CachedToken | undefined;
  #inFlight: Promise<string> | undefined;

  constructor(settings: KeycloakSettings, options: AdminTokenOptions = {}) {
    this.#settings = settings;
    this.#tokenUrl = `${settings.url}/realms/${encodeURIComponent(settings.realm)}/protocol/openid-connect/token`;
    this.#now = options.now ?? Date.now;
    this.#log = options.log;
  }

  /** A token good for a while yet; concurrent callers that find none share one token request. */
  async get(): Promise<string> {
    const cached = this.#cached;
    if (cached && this.#now() < cached.refreshAt) return cached.value;
    this.#inFlight ??= this.#request().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  /**
   * Forgets `token` after Keycloak refused it (revoked, realm keys rotated). Only the very token that was refused is
   * dropped, so callers refused with the same stale token trigger one refresh between them, not one each.
   */
  invalidate(token: string): void {
    if (this.#cached?.value === token) this.#cached = undefined;
  }

  async #request(): Promise<string> {
    const action = 'the admin token request';
    const requestedAt = this.#now();
    let status: number;
    let body: unknown;
    try {
      const response = await fetch(this.#tokenUrl, {
        method: 'POST',
        headers: {
          authorization: basicCredentials(this.#settings.clientId, this.#settings.clientSecret.reveal()),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
        redirect: 'error',
        signal: AbortSignal.timeout(this.#settings.httpTimeoutMs),
      });
      status = response.status;
      body = parseJson(await response.text());
    } catch (err) {
      throw toIdpError(err, action);
    }

    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (status !== 200) {
      // Only the OAuth error code is quoted: this is the one request that carries the secret, so no free text of it.
      const oauthError = typeof fields.error === 'string' && /^[\w.-]{1,64}$/.test(fields.error) ? fields.error : undefined;
      throw idpErrorForStatus(status, action, oauthError, oauthError);
    }
    const { access_token: value, expires_in: expiresIn } = fields;
    if (typeof value !== 'string' || value === '' || typeof expiresIn !== 'number' || !(expiresIn > 0)) {
      throw new IdpError('rejected', 'Keycloak answered the admin token request without access_token and expires_in');
    }
    const lifetimeMs = expiresIn * 1000;
    this.#cached = { value, refreshAt: requestedAt + lifetimeMs - Math.min(lifetimeMs * REFRESH_SHARE, MAX_REFRESH_MARGIN_MS) };
    this.#log?.debug({ expiresInSeconds: expiresIn }, 'obtained a Keycloak admin token');
    return value;
  }
}

/** RFC 6749 §2.3.1: client id and secret are form-urlencoded before they are joined and base64-encoded. */
function basicCredentials(clientId: string, secret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
