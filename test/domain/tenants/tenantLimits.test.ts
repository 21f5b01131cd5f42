import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors.ts';
import { planDomain } from '../../../domain/domains/addDomain.ts';
import type { DomainChangeFacts } from '../../../domain/domains/domainRepository.ts';
import { planInvitation } from '../../../domain/invitations/createInvitation.ts';
import type { InvitationChangeFacts } from '../../../domain/invitations/invitationRepository.ts';
import { newInvitation } from '../../../domain/invitations/newInvitation.ts';
import { planResend } from '../../../domain/invitations/resendInvitation.ts';
import { planSsoConnection } from '../../../domain/sso/createSsoConnection.ts';
import { requireBelowLimit, type TenantLimits } from '../../../domain/tenants/tenantLimits.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const now = new Date('2026-12-01T12:00:00Z');
const limits: TenantLimits = { directories: 2, sso_connections: 2, domains: 2, pending_invitations: 2, invitations_sent_per_hour: 3 };

/** What a refusal is: code, limit named, message in words. */
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, details: error.details, message: error.message };
    throw error;
  }
  return undefined;
};

describe('requireBelowLimit', () => {
  it('allows one more only while the tenant holds fewer than its limit; at or past it, limit_reached naming the limit', () => {
    expect(refusal(() => requireBelowLimit(limits, 'directories', 1))).toBeUndefined();
    expect(refusal(() => requireBelowLimit(limits, 'directories', 2))).toEqual({ code: 'limit_reached', details: { limit: 'directories' }, message: 'this tenant has reached its limit of 2 directories; delete one to make another' });
    expect(refusal(() => requireBelowLimit(limits, 'invitations_sent_per_hour', 7))).toMatchObject({ code: 'limit_reached', details: { limit: 'invitations_sent_per_hour' } });
  });
});

describe('the rules that make something count against the limit', () => {
  const domainFacts = (over: Partial<DomainChangeFacts>): DomainChangeFacts => ({ domain: undefined, tenantId: TENANT, verifiedElsewhere: false, ofTenant: 0, ...over });

  it('planDomain refuses a new domain at the limit, after the name rules (a name the tenant has is still a conflict)', () => {
    const plan = planDomain('00000000-0000-4000-8000-0000000000d1', 'corp.test', 'token', limits);
    expect(plan(domainFacts({ ofTenant: 1 }), now).put?.domain).toBe('corp.test');
    expect(refusal(() => plan(domainFacts({ ofTenant: 2 }), now))).toMatchObject({ code: 'limit_reached', details: { limit: 'domains' } });
    const held = plan(domainFacts({ ofTenant: 0 }), now).put!;
    expect(refusal(() => plan(domainFacts({ ofTenant: 2, domain: held }), now))).toMatchObject({ code: 'conflict' });
  });

  it('planSsoConnection refuses a new connection at the limit', () => {
    const plan = planSsoConnection('00000000-0000-4000-8000-0000000000c1', [], { protocol: 'oidc', issuer: 'https://idp.corp.test', clientId: 'c', clientSecret: 's', endpoints: { authorizationEndpoint: 'https://idp.corp.test/a', tokenEndpoint: 'https://idp.corp.test/t', jwksUri: 'https://idp.corp.test/j', userinfoEndpoint: null } }, limits);
    const facts = (ofTenant: number) => ({ connection: undefined, tenantId: TENANT, verifiedDomains: new Set<string>(), ofTenant });
    expect(plan(facts(1), now).put?.state).toBe('active');
    expect(refusal(() => plan(facts(2), now))).toMatchObject({ code: 'limit_reached', details: { limit: 'sso_connections' } });
  });

  const invitationFacts = (over: Partial<InvitationChangeFacts>): InvitationChangeFacts => ({
    invitation: undefined,
    tenantId: TENANT,
    member: undefined,
    knownRoles: new Map([['MEMBER', []]]),
    pendingOfTenant: 0,
    sentInWindow: 0,
    ...over,
  });
  const settings = { default_role: 'MEMBER', invitation_expiry_days: 7, sign_in: { require_sso: false, mfa: 'off' as const } };
  const invite = (facts: InvitationChangeFacts, sendEmail = true) =>
    planInvitation('00000000-0000-4000-8000-0000000000e1', { email: 'ada@corp.test', send_email: sendEmail }, 'client', settings, limits, facts, now);

  it('planInvitation refuses a new invitation at the pending limit or the hourly sends limit, one without an e-mail alike; the pending one of the address is answered again', () => {
    expect(invite(invitationFacts({ pendingOfTenant: 1, sentInWindow: 2 })).send).toBe(true);
    expect(refusal(() => invite(invitationFacts({ pendingOfTenant: 2 })))).toMatchObject({ code: 'limit_reached', details: { limit: 'pending_invitations' } });
    expect(refusal(() => invite(invitationFacts({ sentInWindow: 3 }), false))).toMatchObject({ code: 'limit_reached', details: { limit: 'invitations_sent_per_hour' } });
    const pending = invite(invitationFacts({})).invitation!;
    expect(invite(invitationFacts({ invitation: pending, pendingOfTenant: 2, sentInWindow: 3 }))).toEqual({ result: { invitation: pending, created: false } });
  });

  it('planResend refuses at the hourly sends limit; an expired one made pending again also needs a place among the pending', () => {
    const { invitation: pending } = newInvitation(
      { id: '00000000-0000-4000-8000-0000000000e2', tenantId: TENANT, email: 'ada@corp.test', roles: ['MEMBER'], invitedBy: 'client', sendEmail: true, userId: null, days: 7, from: new Date(now.getTime() - 3_600_000) },
      new Date(now.getTime() - 3_600_000),
    );
    expect(planResend(limits, invitationFacts({ invitation: pending, pendingOfTenant: 2, sentInWindow: 2 }), now).send).toBe(true);
    expect(refusal(() => planResend(limits, invitationFacts({ invitation: pending, sentInWindow: 3 }), now))).toMatchObject({ code: 'limit_reached', details: { limit: 'invitations_sent_per_hour' } });
    const expired = { ...pending, state: 'expired' as const };
    expect(refusal(() => planResend(limits, invitationFacts({ invitation: expired, pendingOfTenant: 2 }), now))).toMatchObject({ code: 'limit_reached', details: { limit: 'pending_invitations' } });
    expect(planResend(limits, invitationFacts({ invitation: expired, pendingOfTenant: 1 }), now).invitation?.state).toBe('pending');
  });
});
