import type { MembershipStatus } from '../members/memberRecord.ts';
import type { SignInPolicy } from './signInPolicy.ts';

/** Why a sign-in is refused (SPEC-EXTENSIONS §15), in the order the rule judges them. */
export const SIGN_IN_REFUSALS = [
  'tenant_archived',
  'tenant_frozen',
  'not_a_member',
  'member_inactive',
  'not_entitled',
  'sso_required',
  'mfa_required',
  'session_too_old',
] as const;
export type SignInRefusal = (typeof SIGN_IN_REFUSALS)[number];

export const SIGN_IN_DECISIONS = ['allow', 'deny'] as const;

/**
 * Authentication methods (RFC 8176 `amr` values) that are a factor beyond a password: a one-time code, a key, a
 * device or the body. `pwd`, `pin` and `kba` are what a user knows, so a sign-in with only those had one factor.
 */
export const SECOND_FACTOR_METHODS: ReadonlySet<string> = new Set(['otp', 'mfa', 'hwk', 'swk', 'sc', 'sms', 'tel', 'fpt', 'face', 'iris', 'retina', 'vbm', 'pop']);

/** What one sign-in (or code exchange, or refresh) of one user for one tenant is judged by. */
export interface SignInFacts {
  tenantStatus: string;
  membership: MembershipStatus;
  /** The member may sign in without the tenant's SSO when the tenant requires it (audited as it does). */
  breakGlass: boolean;
  /** The product whose client the token is for; undefined for a client of no product, which no entitlement governs. */
  clientProduct: string | undefined;
  /** The products the tenant holds a current entitlement to. */
  products: readonly string[];
  policy: SignInPolicy;
  /** The sign-in came through one of the tenant's own SSO connections. */
  throughTenantSso: boolean;
  /** The authentication methods of the sign-in; absent, none is known. */
  amr: readonly string[] | undefined;
  /** When the user authenticated, in seconds since the epoch (OIDC's auth_time); absent, unknown. */
  authTime: number | undefined;
  now: number;
}

export type SignInDecision = { decision: 'allow'; breakGlassUsed: boolean } | { decision: 'deny'; reason: SignInRefusal };

const deny = (reason: SignInRefusal): SignInDecision => ({ decision: 'deny', reason });

/**
 * The registry's answer to a sign-in: the first refusal that applies, in SIGN_IN_REFUSALS' order, else allowed.
 * A pending member (invited, not yet accepted) may sign in for a client of no product, which is how an existing
 * account accepts (SPEC-EXTENSIONS §13), but not for a product's. A sign-in through the tenant's SSO answers
 * `mfa` as the customer's own provider does. What the policy needs that the request does not carry (no `amr`, no
 * `auth_time`) counts against the sign-in: the registry never allows on evidence it was not given.
 */
export function decideSignIn(facts: SignInFacts): SignInDecision {
  if (facts.tenantStatus === 'archived') return deny('tenant_archived');
  if (facts.tenantStatus === 'frozen') return deny('tenant_frozen');
  if (facts.membership === 'none') return deny('not_a_member');
  if (facts.membership === 'inactive') return deny('member_inactive');
  if (facts.membership === 'pending' && facts.clientProduct !== undefined) return deny('not_a_member');
  if (facts.clientProduct !== undefined && !facts.products.includes(facts.clientProduct)) return deny('not_entitled');
  const ssoWaived = facts.policy.require_sso && !facts.throughTenantSso;
  if (ssoWaived && !facts.breakGlass) return deny('sso_required');
  if (facts.policy.mfa === 'required' && !facts.throughTenantSso && !hasSecondFactor(facts.amr)) return deny('mfa_required');
  if (facts.policy.session_max_hours !== undefined && !withinSessionAge(facts.authTime, facts.policy.session_max_hours, facts.now)) return deny('session_too_old');
  return { decision: 'allow', breakGlassUsed: ssoWaived };
}

const hasSecondFactor = (amr: readonly string[] | undefined): boolean => amr?.some((method) => SECOND_FACTOR_METHODS.has(method)) ?? false;

const withinSessionAge = (authTime: number | undefined, maxHours: number, now: number): boolean =>
  authTime !== undefined && now - authTime * 1000 <= maxHours * 3_600_000;
