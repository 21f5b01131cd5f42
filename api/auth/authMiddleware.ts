/** Koa middleware guarding every route but the health probes with an OIDC bearer token (when AUTH_ENABLED). */
import type { Middleware, ParameterizedContext } from 'koa';
import { AppError } from '../../domain/errors.ts';
import type { AuthConfig } from './authConfig.ts';
import { createOidcTokenVerifier, IssuerUnavailableError, type Principal, type TokenVerifier } from './oidcTokenVerifier.ts';

/** What the middleware uses of ctx.state: the request logger (set by requestScope) in, the verified principal out. */
export type AuthState = {
  log?: { error(details: { err: unknown }, message: string): void };
  principal?: Principal;
};


/** RFC 6750 §2.1: case-insensitive scheme, then a b64token; anything else counts as no bearer credentials. */
const BEARER_HEADER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * `publicPaths`: the paths of the operations whose access is `public` (the health probes, SPEC "Authentication" 4),
 * matched exactly so no other path can slip through.
 */
export function createAuthMiddleware(config: AuthConfig, publicPaths: PublicPaths, verifier?: TokenVerifier): Middleware<AuthState> {
  if (!config.enabled) return (_ctx, next) => next();
  const tokens = verifier ?? createOidcTokenVerifier(config);

  return async (ctx, next) => {
    if (publicPaths.has(ctx.path)) return next();

    const token = BEARER_HEADER.exec(ctx.get('Authorization'))?.[1];
    if (token === undefined) return reject(ctx, 'a Bearer token is required in the Authorization header', false);

    let principal: Principal;
    try {
      principal = await tokens.verify(token);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'unauthorized')) throw err;
      // The caller only learns "unavailable"; the log gets the cause so operators see why every request is refused.
      if (err instanceof IssuerUnavailableError) {
        ctx.state.log?.error({ err }, 'inbound token not verified: identity provider unavailable');
      }
      return reject(ctx, err.message, true);
    }
    ctx.state.principal = principal;
    await next();
  };
}

/** Answers 401 here rather than throwing, so the challenge header is always set and nothing downstream runs. */
function reject(ctx: ParameterizedContext<AuthState>, message: string, invalidToken: boolean): void {
  ctx.status = 401;
  // RFC 6750 §3.1: no error code when credentials are absent; invalid_token when a token was presented and refused.
  ctx.set('WWW-Authenticate', invalidToken ? 'Bearer error="invalid_token"' : 'Bearer');
  ctx.body = { error: 'unauthorized', message };
}

/** Which paths need no token. */
export interface PublicPaths {
  has(path: string): boolean;
}

const escaped = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/**
 * The paths whose operations need no token: a `public` operation's path matched whole, each `{parameter}` one path
 * segment; and everything beneath `ownAuthPrefixes`, whose routes authenticate their callers themselves (the SCIM
 * endpoint's directory tokens), so that an unknown path there is answered by that endpoint's 404, not an OIDC 401.
 */
export function publicPathsOf(routes: ReadonlyArray<{ path: string; access: string }>, ownAuthPrefixes: readonly string[] = []): PublicPaths {
  const exact = new Set<string>();
  const templates: RegExp[] = [];
  for (const route of routes.filter((r) => r.access === 'public')) {
    if (!route.path.includes('{')) exact.add(route.path);
    // A template beneath a prefix is the prefix's already: no expression left to try on every request for it.
    else if (!ownAuthPrefixes.some((prefix) => route.path.startsWith(prefix))) templates.push(new RegExp(`^${route.path.split(/\{\w+\}/).map(escaped).join('[^/]+')}$`));
  }
  return { has: (path) => exact.has(path) || ownAuthPrefixes.some((prefix) => path.startsWith(prefix)) || templates.some((t) => t.test(path)) };
}
