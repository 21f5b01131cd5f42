import { describe, expect, it } from 'vitest';
import type { TenantProductRecord } from '../../../domain/entitlements/tenantProductRecord.ts';
import { planDueLifecycle, upcomingLifecycleEvents } from '../../../domain/tenants/lifecycleTimeline.ts';
import type { TenantRecord } from '../../../domain/tenants/tenantRecord.ts';

const DAY = 24 * 3600_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const tenant = (extra: Partial<TenantRecord> = {}): TenantRecord => ({
  id: 't', slug: 'acme', name: 'Acme', status: 'trial', kind: 'customer', plan: 'starter', erpCustomerId: null, paymentCustId: null,
  trialEndsAt: new Date(T0 + 14 * DAY), trialRemindedFor: null, contractStart: null, contractEnd: null, salesOwner: null, adminEmail: null,
  adminName: null, settings: {}, createdAt: new Date(T0), updatedAt: new Date(T0), ...extra,
});
const entitlement = (product: string, expiresAt: number | null, extra: Partial<TenantProductRecord> = {}): TenantProductRecord => ({
  tenantId: 't', product, enabled: true, config: {}, expiresAt: expiresAt === null ? null : new Date(expiresAt), expiryAnnouncedFor: null,
  createdAt: new Date(T0), updatedAt: new Date(T0), ...extra,
});

describe('upcomingLifecycleEvents', () => {
  it('a trial has its reminder 3 days before its end, then its expiry; entitlement expiries are interleaved by time', () => {
    expect(upcomingLifecycleEvents(tenant(), [entitlement('sso', T0 + 12 * DAY), entitlement('analytics', null)], 3)).toEqual([
      { kind: 'trial_ending', at: T0 + 11 * DAY },
      { kind: 'entitlement_expired', product: 'sso', at: T0 + 12 * DAY },
      { kind: 'trial_expired', at: T0 + 14 * DAY },
    ]);
  });

  it('a tenant out of trial has no trial events; a reminder already sent for this end date is not scheduled again', () => {
    expect(upcomingLifecycleEvents(tenant({ status: 'active' }), [], 3)).toEqual([]);
    expect(upcomingLifecycleEvents(tenant({ trialRemindedFor: new Date(T0 + 14 * DAY) }), [], 3).map((e) => e.kind)).toEqual(['trial_expired']);
    expect(upcomingLifecycleEvents(tenant({ trialRemindedFor: new Date(T0 + 10 * DAY) }), [], 3).map((e) => e.kind)).toEqual(['trial_ending', 'trial_expired']);
  });

  it('an expiry announced for its current expires_at is done; one announced for an earlier date is scheduled again', () => {
    const at = T0 + 5 * DAY;
    expect(upcomingLifecycleEvents(tenant({ status: 'active' }), [entitlement('sso', at, { expiryAnnouncedFor: new Date(at) })], 3)).toEqual([]);
    expect(upcomingLifecycleEvents(tenant({ status: 'active' }), [entitlement('sso', at, { expiryAnnouncedFor: new Date(at - DAY) })], 3)).toHaveLength(1);
  });
});

describe('planDueLifecycle', () => {
  const locked = (extra: Partial<TenantRecord> = {}, entitlements: TenantProductRecord[] = []) => ({ ...tenant(extra), entitlements });

  it('on day 11 reminds with the whole days left, marks it, and changes no claims', () => {
    const change = planDueLifecycle(locked(), new Date(T0 + 11 * DAY + 60_000), 3);
    expect(change.events).toMatchObject([{ action: 'tenant.trial_ending', metadata: { days_left: 3 } }]);
    expect(change.update).toEqual({ trialRemindedFor: new Date(T0 + 14 * DAY) });
    expect(change.result.claimsChanged).toBe(false);
  });

  it('a trial_ends_at set inside the reminder window reminds at once', () => {
    const change = planDueLifecycle(locked({ trialEndsAt: new Date(T0 + DAY) }), new Date(T0), 3);
    expect(change.events).toMatchObject([{ action: 'tenant.trial_ending', metadata: { days_left: 1 } }]);
  });

  it('at the end the trial freezes (claims change) and a reminder not yet sent is skipped', () => {
    const change = planDueLifecycle(locked(), new Date(T0 + 14 * DAY), 3);
    expect(change.events!.map((e) => e.action)).toEqual(['tenant.trial_expired']);
    expect(change.update).toMatchObject({ status: 'frozen' });
    expect(change.result.claimsChanged).toBe(true);
  });

  it('an expired entitlement is announced once and marked; a disabled one changes no claims', () => {
    const at = T0 + DAY;
    const change = planDueLifecycle(locked({ status: 'active' }, [entitlement('sso', at), entitlement('old', at, { enabled: false })]), new Date(at), 3);
    expect(change.events!.map((e) => [e.action, e.product])).toEqual([['entitlement.expired', 'sso'], ['entitlement.expired', 'old']]);
    expect(change.putEntitlements!.every((e) => e.expiryAnnouncedFor?.getTime() === at)).toBe(true);
    expect(change.result.claimsChanged).toBe(true);
    const again = planDueLifecycle(locked({ status: 'active' }, change.putEntitlements!), new Date(at + 1), 3);
    expect(again.events).toEqual([]);
  });

  it('nothing due: nothing written', () => {
    const change = planDueLifecycle(locked(), new Date(T0 + DAY), 3);
    expect(change.events).toEqual([]);
    expect(change.update).toBeUndefined();
  });
});
