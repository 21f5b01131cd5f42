import { describe, expect, it } from 'vitest';
import { PORTAL_LIFETIME_MS } from '../../../domain/portal/portalSessionLimits.ts';
import { removableEndedBefore, type RetentionPeriods } from '../../../domain/retention/retainedRows.ts';

const HOUR = 3600_000;
const asOf = Date.parse('2026-12-02T12:00:00Z');

describe('removableEndedBefore', () => {
  it("is each kind's retention before the instant asked about", () => {
    const periods: RetentionPeriods = { portal_links: 48 * HOUR, actor_outbox: 7 * 24 * HOUR, directory_tokens: 3 * HOUR };
    expect(removableEndedBefore('portal_links', periods, asOf).getTime()).toBe(asOf - 48 * HOUR);
    expect(removableEndedBefore('actor_outbox', periods, asOf).getTime()).toBe(asOf - 7 * 24 * HOUR);
    expect(removableEndedBefore('directory_tokens', periods, asOf).getTime()).toBe(asOf - 3 * HOUR);
  });

  it("keeps a portal link at least as long as a session it opened may live, whatever its setting; the others as long as set, to none", () => {
    const none: RetentionPeriods = { portal_links: 0, actor_outbox: 0, directory_tokens: 0 };
    expect(removableEndedBefore('portal_links', none, asOf).getTime()).toBe(asOf - PORTAL_LIFETIME_MS);
    expect(removableEndedBefore('portal_links', { ...none, portal_links: HOUR }, asOf).getTime()).toBe(asOf - PORTAL_LIFETIME_MS);
    expect(removableEndedBefore('actor_outbox', none, asOf).getTime()).toBe(asOf);
    expect(removableEndedBefore('directory_tokens', none, asOf).getTime()).toBe(asOf);
  });
});
