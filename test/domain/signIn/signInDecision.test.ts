import { describe, expect, it } from 'vitest';
import { decideSignIn, type SignInFacts } from '../../../domain/signIn/signInDecision.ts';
import type { SignInPolicy } from '../../../domain/signIn/signInPolicy.ts';

const NOW = Date.parse('2026-12-02T12:00:00Z');
const HOUR = 3_600;
const NO_POLICY: SignInPolicy = { require_sso: false, mfa: 'off' };

/** An active member of an active tenant signing in with a password, an hour ago, for a client of a product it holds. */
const facts = (overrides: Partial<SignInFacts> = {}): SignInFacts => ({
  tenantStatus: 'active',
  membership: 'active',
  breakGlass: false,
  clientProduct: 'analytics',
  products: ['analytics'],
  policy: NO_POLICY,
  throughTenantSso: false,
  amr: ['pwd'],
  authTime: NOW / 1000 - HOUR,
  now: NOW,
  ...overrides,
});

/** The sign-ins each policy lets through: the registry must answer allow for every one of them. */
const SATISFIED: [string, Partial<SignInFacts>][] = [
  ['no policy, a password', {}],
  ['require_sso, through the tenant\'s SSO', { policy: { ...NO_POLICY, require_sso: true }, throughTenantSso: true, amr: [] }],
  ['mfa required, a password and a one-time code', { policy: { ...NO_POLICY, mfa: 'required' }, amr: ['pwd', 'otp'] }],
  ['mfa required, through the tenant\'s SSO (its provider owns the factors)', { policy: { ...NO_POLICY, mfa: 'required' }, throughTenantSso: true, amr: [] }],
  ['session_max_hours 8, authenticated an hour ago', { policy: { ...NO_POLICY, session_max_hours: 8 } }],
  ['every policy at once, through the tenant\'s SSO, 7 hours in', { policy: { require_sso: true, mfa: 'required', session_max_hours: 8 }, throughTenantSso: true, authTime: NOW / 1000 - 7 * HOUR }],
  ['require_sso, a break-glass member with a password', { policy: { ...NO_POLICY, require_sso: true }, breakGlass: true }],
];

describe('decideSignIn: no false refusal (tenant status × member status × entitlement × policy)', () => {
  for (const tenantStatus of ['demo', 'trial', 'active']) {
    for (const [client, entitlement] of [
      ['a client of a product the tenant holds', { clientProduct: 'analytics', products: ['analytics', 'sso'] }],
      ['a client of no product', { clientProduct: undefined, products: [] }],
    ] as const) {
      for (const [policy, given] of SATISFIED) {
        it(`allows an active member of a ${tenantStatus} tenant, ${client}, ${policy}`, () => {
          expect(decideSignIn(facts({ tenantStatus, ...entitlement, ...given })).decision).toBe('allow');
        });
      }
    }
  }

  it('allows a pending member (accepting its invitation) for a client of no product, with no roles to grant', () => {
    expect(decideSignIn(facts({ membership: 'pending', clientProduct: undefined }))).toEqual({ decision: 'allow', breakGlassUsed: false });
  });

  it('says when a break-glass member went around the required SSO, and only then', () => {
    expect(decideSignIn(facts({ policy: { ...NO_POLICY, require_sso: true }, breakGlass: true }))).toEqual({ decision: 'allow', breakGlassUsed: true });
    expect(decideSignIn(facts({ policy: { ...NO_POLICY, require_sso: true }, breakGlass: true, throughTenantSso: true }))).toEqual({ decision: 'allow', breakGlassUsed: false });
    expect(decideSignIn(facts({ breakGlass: true }))).toEqual({ decision: 'allow', breakGlassUsed: false });
  });
});

describe('decideSignIn: each refusal', () => {
  const refusals: [string, Partial<SignInFacts>, string][] = [
    ['a frozen tenant', { tenantStatus: 'frozen' }, 'tenant_frozen'],
    ['an archived tenant', { tenantStatus: 'archived' }, 'tenant_archived'],
    ['a user who is no member', { membership: 'none' }, 'not_a_member'],
    ['a user who is no member, for a client of no product', { membership: 'none', clientProduct: undefined }, 'not_a_member'],
    ['a pending member, for a product\'s client', { membership: 'pending' }, 'not_a_member'],
    ['an inactive member', { membership: 'inactive' }, 'member_inactive'],
    ['an inactive member, for a client of no product', { membership: 'inactive', clientProduct: undefined }, 'member_inactive'],
    ['a client of a product the tenant does not hold', { clientProduct: 'automation' }, 'not_entitled'],
    ['a client of a product whose entitlement is gone', { products: [] }, 'not_entitled'],
    ['require_sso and a password', { policy: { ...NO_POLICY, require_sso: true } }, 'sso_required'],
    ['require_sso and another tenant\'s or the realm\'s broker', { policy: { ...NO_POLICY, require_sso: true }, throughTenantSso: false, amr: [] }, 'sso_required'],
    ['mfa required and a password alone', { policy: { ...NO_POLICY, mfa: 'required' } }, 'mfa_required'],
    ['mfa required and what a user knows twice', { policy: { ...NO_POLICY, mfa: 'required' }, amr: ['pwd', 'pin', 'kba'] }, 'mfa_required'],
    ['mfa required and no amr sent', { policy: { ...NO_POLICY, mfa: 'required' }, amr: undefined }, 'mfa_required'],
    ['mfa required, a break-glass member with a password alone', { policy: { require_sso: true, mfa: 'required' }, breakGlass: true }, 'mfa_required'],
    ['a session older than session_max_hours', { policy: { ...NO_POLICY, session_max_hours: 8 }, authTime: NOW / 1000 - 8 * HOUR - 1 }, 'session_too_old'],
    ['session_max_hours and no auth_time sent', { policy: { ...NO_POLICY, session_max_hours: 8 }, authTime: undefined }, 'session_too_old'],
  ];
  for (const [what, given, reason] of refusals) {
    it(`refuses ${what}: ${reason}`, () => {
      expect(decideSignIn(facts(given))).toEqual({ decision: 'deny', reason });
    });
  }

  it('a session exactly session_max_hours old is still allowed', () => {
    expect(decideSignIn(facts({ policy: { ...NO_POLICY, session_max_hours: 8 }, authTime: NOW / 1000 - 8 * HOUR })).decision).toBe('allow');
  });

  it('names the first refusal that applies: tenant, then membership, then entitlement, then SSO, MFA and session age', () => {
    const everything: Partial<SignInFacts> = {
      membership: 'inactive',
      clientProduct: 'automation',
      policy: { require_sso: true, mfa: 'required', session_max_hours: 1 },
      authTime: NOW / 1000 - 2 * HOUR,
    };
    expect(decideSignIn(facts({ ...everything, tenantStatus: 'archived' }))).toEqual({ decision: 'deny', reason: 'tenant_archived' });
    expect(decideSignIn(facts({ ...everything, tenantStatus: 'frozen' }))).toEqual({ decision: 'deny', reason: 'tenant_frozen' });
    expect(decideSignIn(facts(everything))).toEqual({ decision: 'deny', reason: 'member_inactive' });
    expect(decideSignIn(facts({ ...everything, membership: 'active' }))).toEqual({ decision: 'deny', reason: 'not_entitled' });
    expect(decideSignIn(facts({ ...everything, membership: 'active', clientProduct: 'analytics' }))).toEqual({ decision: 'deny', reason: 'sso_required' });
    expect(decideSignIn(facts({ ...everything, membership: 'active', clientProduct: 'analytics', breakGlass: true }))).toEqual({ decision: 'deny', reason: 'mfa_required' });
    expect(decideSignIn(facts({ ...everything, membership: 'active', clientProduct: 'analytics', breakGlass: true, amr: ['pwd', 'otp'] }))).toEqual({ decision: 'deny', reason: 'session_too_old' });
  });
});
