import { describe, expect, it } from 'vitest';
import { planDomainCheck } from '../../../domain/domains/domainCheck.ts';
import type { DomainRecord } from '../../../domain/domains/domainRecord.ts';

const HOUR = 3600_000;
const times = { windowHours: 72, recheckHours: 24 };
const created = new Date('2026-11-01T00:00:00Z');
const domain = (over: Partial<DomainRecord> = {}): DomainRecord => ({
  id: 'd', tenantId: 't', domain: 'acme.test', state: 'pending', token: 'abc', verifiedAt: null, lastCheckedAt: null,
  nextCheckAt: created, misses: 0, createdAt: created, updatedAt: created, ...over,
});
const at = (hours: number) => new Date(created.getTime() + hours * HOUR);
const record = { values: ['other', 'tenant-registry-verification=abc'] };
const none = { values: ['tenant-registry-verification=xyz'] };

describe('planDomainCheck', () => {
  it('verifies a pending domain whose record carries its token, and looks again in recheckHours', () => {
    const { domain: after, event } = planDomainCheck(domain(), record, at(1), times);
    expect(after).toMatchObject({ state: 'verified', verifiedAt: at(1), lastCheckedAt: at(1), nextCheckAt: at(25), misses: 0 });
    expect(event?.action).toBe('domain.verified');
  });

  it('keeps a pending domain pending within its window, each look-up later than the one before (1 minute doubling, at most an hour)', () => {
    let current = domain();
    const gaps: number[] = [];
    for (let i = 0; i < 9; i++) {
      const now = new Date(current.nextCheckAt!.getTime());
      const { domain: after, event } = planDomainCheck(current, none, now, times);
      expect(event).toBeUndefined();
      expect(after.state).toBe('pending');
      gaps.push((after.nextCheckAt!.getTime() - now.getTime()) / 60_000);
      current = after;
    }
    expect(gaps).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });

  it('fails a pending domain at the end of its window (domain.failed), its last look-up falling on the window\'s end', () => {
    const near = planDomainCheck(domain({ misses: 20 }), none, at(71.5), times);
    expect(near.domain.nextCheckAt).toEqual(at(72));
    const { domain: after, event } = planDomainCheck(near.domain, none, at(72), times);
    expect(after).toMatchObject({ state: 'failed', nextCheckAt: null });
    expect(event?.action).toBe('domain.failed');
  });

  it('fails a verified domain whose record is gone (domain.verification_lost); keeps it verified while the record stays', () => {
    const verified = domain({ state: 'verified', verifiedAt: at(1) });
    expect(planDomainCheck(verified, record, at(25), times)).toEqual({ domain: expect.objectContaining({ state: 'verified', nextCheckAt: at(49) }) });
    const { domain: after, event } = planDomainCheck(verified, none, at(25), times);
    expect(after).toMatchObject({ state: 'failed', nextCheckAt: null });
    expect(event?.action).toBe('domain.verification_lost');
  });

  it('changes nothing but the next look-up when the resolver did not answer: not a failed verification', () => {
    const verified = domain({ state: 'verified', verifiedAt: at(1), lastCheckedAt: at(1) });
    const { domain: after, event } = planDomainCheck(verified, { unavailable: 'ETIMEOUT' }, at(25), times);
    expect(event).toBeUndefined();
    expect(after).toMatchObject({ state: 'verified', lastCheckedAt: at(1), nextCheckAt: new Date(at(25).getTime() + 60_000) });
    expect(planDomainCheck(domain({ state: 'failed', nextCheckAt: null }), { unavailable: 'ECONNREFUSED' }, at(2), times).domain.nextCheckAt).toBeNull();
  });

  it('verifies a failed domain again when its record is published; a failed one without it stays failed, unchecked later', () => {
    const failed = domain({ state: 'failed', nextCheckAt: null });
    expect(planDomainCheck(failed, record, at(80), times).domain.state).toBe('verified');
    expect(planDomainCheck(failed, none, at(80), times)).toEqual({ domain: expect.objectContaining({ state: 'failed', nextCheckAt: null }) });
  });
});
