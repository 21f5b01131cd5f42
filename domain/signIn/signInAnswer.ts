import type { MembershipGrant } from '../members/memberRecord.ts';
import type { CachedTenant } from '../reads/tenantCache.ts';
import type { Claims, ClaimsRequest } from '../schemas/claims.ts';
import type { ProductClients } from './productClients.ts';
import { decideSignIn } from './signInDecision.ts';
import { BREAK_GLASS_WINDOW_MS, REFUSAL_WINDOW_MS, breakGlassUsedEvent, breakGlassKey, refusalKey, signInRefusedEvent, type SignInEventSink, type SignInSubject } from './signInEvents.ts';

/**
 * The claims answer's `decision` and `reason` for a sign-in of the user for `clientId` in the tenant, judged by
 * decideSignIn from what the claims path already read; a refusal, and a break-glass sign-in, go to `events`.
 */
export function signInAnswerOf(
  tenant: CachedTenant,
  grant: MembershipGrant | undefined,
  request: ClaimsRequest & { client_id: string; user_id: string },
  products: readonly string[],
  clients: ProductClients,
  now: number,
  events: SignInEventSink | undefined,
): Pick<Claims, 'decision' | 'reason'> {
  const product = clients.get(request.client_id)?.product;
  const verdict = decideSignIn({
    tenantStatus: tenant.status,
    membership: grant?.status ?? 'none',
    breakGlass: grant?.breakGlass ?? false,
    clientProduct: product,
    products,
    policy: tenant.signIn,
    throughTenantSso: request.identity_provider !== undefined && tenant.ssoAliases.includes(request.identity_provider),
    amr: request.amr,
    authTime: request.auth_time,
    now,
  });
  const subject: SignInSubject = {
    tenantId: tenant.id,
    userId: request.user_id,
    clientId: request.client_id,
    product,
    identityProvider: request.identity_provider,
    authTime: request.auth_time,
  };
  if (verdict.decision === 'deny') {
    events?.(refusalKey(subject, verdict.reason), REFUSAL_WINDOW_MS, signInRefusedEvent(subject, verdict.reason));
    return { decision: 'deny', reason: verdict.reason };
  }
  if (verdict.breakGlassUsed) events?.(breakGlassKey(subject), BREAK_GLASS_WINDOW_MS, breakGlassUsedEvent(subject));
  return { decision: 'allow' };
}
