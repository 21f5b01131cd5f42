import type { Context, Middleware } from 'koa';
import { TokenBuckets } from '../../domain/rateLimits/tokenBuckets.ts';
import type { Settings } from '../../platform/config.ts';

/** Verify and claims sit on other systems' hot paths, so they have budgets of their own (SPEC-EXTENSIONS §5). */
export type RateLimitClass = 'verify' | 'claims' | 'default';

type Budget = { perSecond: number; burst: number };
type ClassBuckets = Record<RateLimitClass, TokenBuckets | undefined>;

/** A class's budget as configured: a rate of 0 is no limit, a burst of 0 two seconds' worth. */
function budgetsOf(settings: Settings): Record<RateLimitClass, Budget> {
  const budget = (perSecond: number, burst: number): Budget => ({ perSecond, burst: burst > 0 ? burst : Math.max(1, Math.ceil(perSecond * 2)) });
  return {
    default: budget(settings.RATE_LIMIT_PER_SECOND, settings.RATE_LIMIT_BURST),
    verify: budget(settings.RATE_LIMIT_VERIFY_PER_SECOND, settings.RATE_LIMIT_VERIFY_BURST),
    claims: budget(settings.RATE_LIMIT_CLAIMS_PER_SECOND, settings.RATE_LIMIT_CLAIMS_BURST),
  };
}

/** One set of buckets per class, each budget multiplied by `clients`; a class without a rate has none. */
function bucketsOf(settings: Settings, clients: number): ClassBuckets {
  const budgets = budgetsOf(settings);
  const bucketsFor = ({ perSecond, burst }: Budget) =>
    perSecond > 0 ? new TokenBuckets({ ratePerSecond: perSecond * clients, burst: burst * clients }) : undefined;
  return { default: bucketsFor(budgets.default), verify: bucketsFor(budgets.verify), claims: bucketsFor(budgets.claims) };
}

/** True when any budget is configured (the OpenAPI document then declares 429). */
export const rateLimitsConfigured = (settings: Settings) =>
  settings.RATE_LIMIT_PER_SECOND > 0 || settings.RATE_LIMIT_VERIFY_PER_SECOND > 0 || settings.RATE_LIMIT_CLAIMS_PER_SECOND > 0;

/** A middleware taking one token of the request's class from the bucket of `keyOf(ctx)`; 429 when there is none. */
function limiter(buckets: ClassBuckets, classOf: (path: string) => RateLimitClass | undefined, keyOf: (ctx: Context) => string, whose: string): Middleware {
  return (ctx, next) => {
    const kind = classOf(ctx.path);
    const limited = kind && buckets[kind];
    if (!limited) return next();
    const verdict = limited.take(keyOf(ctx));
    if (verdict.allowed) return next();
    ctx.status = 429;
    ctx.set('Retry-After', String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))));
    ctx.body = { error: 'rate_limited', message: `rate limit reached for ${kind} requests ${whose}; retry after the time in Retry-After` };
    return undefined;
  };
}

/**
 * 429 `rate_limited` with Retry-After once a client spent its budget. Runs after authentication, so a token's client
 * (azp, client_id, else sub) is the key and one client cannot spend another's budget; with authentication off the
 * key is the address (ctx.ip, which honours TRUST_PROXY). `classOf` answers undefined for what is never limited.
 */
export function rateLimit(settings: Settings, classOf: (path: string) => RateLimitClass | undefined): Middleware | undefined {
  if (!rateLimitsConfigured(settings)) return undefined;
  return limiter(bucketsOf(settings, 1), classOf, (ctx) => {
    const principal = ctx.state.principal as { azp?: string; client_id?: string; sub?: string } | undefined;
    return principal ? `client:${principal.azp ?? principal.client_id ?? principal.sub}` : `address:${ctx.ip}`;
  }, 'of this client');
}

/**
 * The limit before authentication: each address may spend RATE_LIMIT_ADDRESS_CLIENTS clients' budgets of a class
 * before its token is verified, so a flood of tokens (forged, or of unknown keys that would cost a JWKS fetch) is
 * refused without a verification. Keyed by the address, never by the token's still unverified client, which would let
 * a forged token spend another client's budget.
 */
export function addressRateLimit(settings: Settings, classOf: (path: string) => RateLimitClass | undefined): Middleware | undefined {
  if (!rateLimitsConfigured(settings)) return undefined;
  return limiter(bucketsOf(settings, settings.RATE_LIMIT_ADDRESS_CLIENTS), classOf, (ctx) => ctx.ip, 'from this address');
}
