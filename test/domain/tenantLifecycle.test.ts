import { describe, expect, it } from 'vitest';
import { initialStatus, statusAfter } from '../../domain/tenantLifecycle.ts';

const NOW = new Date('2026-03-10T12:34:56.789Z');

describe('tenantLifecycle', () => {
  it('a demo tenant starts in demo with no trial end', () => {
    expect(initialStatus('demo', NOW)).toEqual({ status: 'demo', trialEndsAt: null });
  });

  it('a customer tenant starts in trial ending exactly 14 days after creation', () => {
    const { status, trialEndsAt } = initialStatus('customer', NOW);
    expect(status).toBe('trial');
    expect(trialEndsAt?.toISOString()).toBe('2026-03-24T12:34:56.789Z');
  });

  it('activate leads to active', () => {
    expect(statusAfter('activate')).toBe('active');
  });

  it('cancel leads to frozen', () => {
    expect(statusAfter('cancel')).toBe('frozen');
  });
});
