import type { Middleware } from 'koa';
import { TokenBuckets } from '../../domain/rateLimits/tokenBuckets.ts';
import type { Settings } from '../../platform/config.ts';

/** Verify and claims sit on other systems' hot paths, so they have budgets of their own (SPEC-EXTENSIONS §5). */
export type RateLimitClass = 'verify' | 'claims' | 'default';

type Budget = { perSecond: number; burst: number };

const bucketsFor = ({ perSecond, burst }: Budget) =>
  perSecond > 0 ? new TokenBuckets({ ratePerSecond: perSecond, burst: burst > 0 ? burst : Math.max(1, Math.ceil(perSecond * 2)) }) : undefined;

/** True when any budget is configured (the OpenAPI document then declares 429). */
export const rateLimitsConfigured = (settings: Settings) =>
  settings.RATE_LIMIT_PER_SECOND > 0 || settings.RATE_LIMIT_VERIFY_PER_SECOND > 0 || settings.RATE_LIMIT_CLAIMS_PER_SECOND > 0;

/**
 * 429 `rate_limited` with Retry-After once a client spent its budget. Runs after authentication, so a token's client
 * (azp, client_id, else sub) is the key and one client cannot spend another's budget; with authentication off the
 * key is the address (ctx.ip, which honours TRUST_PROXY). `classOf` answers undefined for what is never limited.
 */
export function rateLimit(settings: Settings, classOf: (path: string) => RateLimitClass | undefined): Middleware | undefined {
  if (!rateLimitsConfigured(settings)) return undefined;
  const buckets: Record<RateLimitClass, TokenBuckets | undefined> = {
    default: bucketsFor({ perSecond: settings.RATE_LIMIT_PER_SECOND, burst: settings.RATE_LIMIT_BURST }),
    verify: bucketsFor({ perSecond: settings.RATE_LIMIT_VERIFY_PER_SECOND, burst: settings.RATE_LIMIT_VERIFY_BURST }),
    claims: bucketsFor({ perSecond: settings.RATE_LIMIT_CLAIMS_PER_SECOND, burst: settings.RATE_LIMIT_CLAIMS_BURST }),
  };
  return (ctx, next) => {
    const kind = classOf(ctx.path);
    const limiter = kind && buckets[kind];
    if (!limiter) return next();
    const principal = ctx.state.principal as { azp?: string; client_id?: string; sub?: string } | undefined;
    const client = principal ? `client:${principal.azp ?? principal.client_id ?? principal.sub}` : `address:${ctx.ip}`;
    const verdict = limiter.take(client);
    if (verdict.allowed) return next();
    ctx.status = 429;
    ctx.set('Retry-After', String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))));
    ctx.body = { error: 'rate_limited', message: `rate limit reached for ${kind} requests; retry after the time in Retry-After` };
    return undefined;
  };
}
