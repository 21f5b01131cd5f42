import { describe, expect, it } from 'vitest';
import { portalSessionEnd } from '../../../domain/portal/portalSessions.ts';
import { PORTAL_IDLE_MS, PORTAL_LIFETIME_MS } from '../../../domain/portal/portalSessionLimits.ts';

const now = new Date('2026-12-01T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('portalSessionEnd', () => {
  it('ends a session 8 hours after it opened, however recently it was used', () => {
    expect(portalSessionEnd({ createdAt: ago(PORTAL_LIFETIME_MS - 1), lastSeenAt: ago(0) }, 'active', now)).toBeUndefined();
    expect(portalSessionEnd({ createdAt: ago(PORTAL_LIFETIME_MS), lastSeenAt: ago(0) }, 'active', now)).toBe('lifetime');
  });

  it('keeps the 30-minute idle rule', () => {
    expect(portalSessionEnd({ createdAt: ago(PORTAL_IDLE_MS + 2), lastSeenAt: ago(PORTAL_IDLE_MS) }, 'trial', now)).toBeUndefined();
    expect(portalSessionEnd({ createdAt: ago(PORTAL_IDLE_MS + 2), lastSeenAt: ago(PORTAL_IDLE_MS + 1) }, 'trial', now)).toBe('idle');
  });

  it('ends a session of a frozen or archived tenant, and only those', () => {
    const fresh = { createdAt: ago(1000), lastSeenAt: ago(1000) };
    for (const status of ['frozen', 'archived']) expect(portalSessionEnd(fresh, status, now), status).toBe('tenant_closed');
    for (const status of ['demo', 'trial', 'active']) expect(portalSessionEnd(fresh, status, now), status).toBeUndefined();
  });
});
